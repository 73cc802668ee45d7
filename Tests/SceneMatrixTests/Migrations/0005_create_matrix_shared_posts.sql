-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixShared.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixShared: A customer's public posts, moderated by staff.
CREATE TABLE matrix_shared_posts (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    title text NOT NULL,
    hidden boolean NOT NULL DEFAULT false,
    moderation_note text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_shared_posts_title_check CHECK (char_length(title) BETWEEN 1 AND 120),
    CONSTRAINT matrix_shared_posts_moderation_note_check CHECK (char_length(moderation_note) <= 200)
);

CREATE INDEX matrix_shared_posts_customer_id_idx ON matrix_shared_posts (customer_id, created_at DESC, id DESC);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_shared_posts_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_shared_posts
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
