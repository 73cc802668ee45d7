-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixBook.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixBook: A customer's book of entries, one of them the favourite.
CREATE TABLE matrix_book_entries (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    code text NOT NULL,
    label text NOT NULL,
    note text,
    memo text,
    rank integer NOT NULL DEFAULT 5,
    favourite boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_book_entries_code_check CHECK (char_length(code) BETWEEN 2 AND 2),
    CONSTRAINT matrix_book_entries_label_check CHECK (char_length(label) <= 40),
    CONSTRAINT matrix_book_entries_rank_check CHECK (rank BETWEEN 1 AND 9)
);

CREATE INDEX matrix_book_entries_customer_id_idx ON matrix_book_entries (customer_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX matrix_book_entries_favourite_key ON matrix_book_entries (customer_id) WHERE favourite;

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_book_entries_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_book_entries
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
