-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixOwnedTags.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixOwnedTags: A customer's tags on records of their own.
CREATE TABLE matrix_owned_tags (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    record_id uuid NOT NULL REFERENCES matrix_owned_records (id),
    label text NOT NULL,
    colour text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_owned_tags_label_check CHECK (char_length(label) BETWEEN 1 AND 40),
    CONSTRAINT matrix_owned_tags_colour_key UNIQUE (colour),
    CONSTRAINT matrix_owned_tags_colour_check CHECK (colour IN ('red', 'green', 'blue', 'amber', 'teal', 'plum'))
);

CREATE INDEX matrix_owned_tags_customer_id_idx ON matrix_owned_tags (customer_id, created_at DESC, id DESC);
CREATE INDEX matrix_owned_tags_record_id_idx ON matrix_owned_tags (record_id, created_at DESC, id DESC);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_owned_tags_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_owned_tags
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
