-- A photo upload takes its slot under the review's limit before the file goes to the media API,
-- so uploads that lose the race are refused before anything is stored there (no orphaned
-- files). A slot is released when its upload fails and lapses at `expires_at` if its process
-- dies mid-upload.
CREATE TABLE review_photo_slots (
    id uuid PRIMARY KEY,
    review_id uuid NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
);
CREATE INDEX review_photo_slots_review_id_idx ON review_photo_slots (review_id);
