-- MatrixBook's enum with a default and an example that differs from it.
ALTER TABLE matrix_book_entries
    ADD COLUMN shelf text NOT NULL DEFAULT 'low' CONSTRAINT matrix_book_entries_shelf_check CHECK (shelf IN ('low', 'high'));
