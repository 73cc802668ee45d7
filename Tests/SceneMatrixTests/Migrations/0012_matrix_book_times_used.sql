-- MatrixBook's count no client writes.
ALTER TABLE matrix_book_entries
    ADD COLUMN times_used integer NOT NULL DEFAULT 0 CONSTRAINT matrix_book_entries_times_used_check CHECK (times_used >= 0);
