-- Reviews with photos, the ratings kept on items, customer settings and the home feed's category
-- counts. Every rule the application checks is repeated as a constraint.

CREATE TABLE reviews (
    id uuid PRIMARY KEY,
    item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    content text NOT NULL,
    rating integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    -- One review per customer and item: a second is a conflict, whatever the timing.
    CONSTRAINT reviews_customer_item_key UNIQUE (customer_id, item_id),
    CONSTRAINT reviews_rating_range CHECK (rating BETWEEN 1 AND 5),
    CONSTRAINT reviews_content_length CHECK (char_length(btrim(content)) BETWEEN 1 AND 2000)
);
-- An item's reviews, newest first (keyset pagination).
CREATE INDEX reviews_item_created_at_id_idx ON reviews (item_id, created_at DESC, id DESC);

CREATE TABLE review_photos (
    id uuid PRIMARY KEY,
    review_id uuid NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
    -- Denormalized from the review so an item's photos page by one index.
    item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    filename text NOT NULL,
    content_type text NOT NULL,
    size integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT review_photos_content_type_check CHECK (content_type IN ('image/jpeg', 'image/png', 'image/gif', 'image/webp')),
    CONSTRAINT review_photos_size_range CHECK (size BETWEEN 1 AND 10485760),
    CONSTRAINT review_photos_filename_format CHECK (filename ~ '^[A-Za-z0-9._-]{1,255}$')
);
CREATE INDEX review_photos_review_id_idx ON review_photos (review_id, created_at, id);
CREATE INDEX review_photos_item_created_at_id_idx ON review_photos (item_id, created_at DESC, id DESC);

-- Ratings on the item, changed in the same transaction as the review so they are exact under
-- concurrent reviews (the row lock of the UPDATE serializes them).
ALTER TABLE items
    ADD COLUMN review_count integer NOT NULL DEFAULT 0,
    ADD COLUMN rating_sum bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT items_review_count_nonnegative CHECK (review_count >= 0),
    ADD CONSTRAINT items_rating_sum_range CHECK (rating_sum BETWEEN review_count AND 5 * review_count);
-- The home feed's top rated: by average, then by how many reviews back it; unrated items are
-- left out of the index.
CREATE INDEX items_top_rated_idx ON items ((rating_sum::numeric / review_count) DESC, review_count DESC, id)
    WHERE review_count > 0;

-- Customer settings.
ALTER TABLE customers
    ADD COLUMN locale text NOT NULL DEFAULT 'en',
    ADD COLUMN marketing_opt_in boolean NOT NULL DEFAULT false,
    ADD CONSTRAINT customers_locale_format CHECK (locale ~ '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$');

-- Items per category for the home feed, kept by a trigger so the feed reads a few rows instead of
-- counting the catalog.
CREATE TABLE category_counts (
    name text PRIMARY KEY,
    item_count integer NOT NULL,
    CONSTRAINT category_counts_item_count_nonnegative CHECK (item_count >= 0)
);
INSERT INTO category_counts (name, item_count) SELECT category, count(*) FROM items GROUP BY category;

CREATE FUNCTION category_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE category_counts SET item_count = item_count - 1 WHERE name = OLD.category;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO category_counts (name, item_count) VALUES (NEW.category, 1)
        ON CONFLICT (name) DO UPDATE SET item_count = category_counts.item_count + 1;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER items_category_counts AFTER INSERT OR DELETE OR UPDATE OF category ON items
    FOR EACH ROW EXECUTE FUNCTION category_counts_track();
