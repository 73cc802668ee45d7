-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixNested.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixNested: A customer's notes on a parent record, reached under the parent's path.
CREATE TABLE matrix_nested_notes (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    parent_id uuid NOT NULL REFERENCES matrix_unowned_records (id),
    text text NOT NULL,
    pinned boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_nested_notes_text_check CHECK (char_length(text) BETWEEN 1 AND 200)
);

CREATE INDEX matrix_nested_notes_customer_id_idx ON matrix_nested_notes (customer_id, created_at DESC, id DESC);
CREATE INDEX matrix_nested_notes_parent_id_idx ON matrix_nested_notes (parent_id);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_nested_notes_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_nested_notes
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
