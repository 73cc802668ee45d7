-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixMinimal.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixMinimal: A bare record a customer creates, reads and deletes.
CREATE TABLE matrix_minimal_records (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    title text NOT NULL,
    CONSTRAINT matrix_minimal_records_title_check CHECK (char_length(title) <= 80)
);

CREATE INDEX matrix_minimal_records_customer_id_idx ON matrix_minimal_records (customer_id, id DESC);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_minimal_records_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_minimal_records
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
