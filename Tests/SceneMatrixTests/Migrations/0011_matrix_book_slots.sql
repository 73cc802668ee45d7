-- MatrixBook's slot, once per customer (a required field with no example, which the one-flag
-- test's second row takes another value of).
ALTER TABLE matrix_book_entries
    ADD COLUMN slot text NOT NULL DEFAULT 'a' CONSTRAINT matrix_book_entries_slot_check CHECK (char_length(slot) BETWEEN 1 AND 8),
    ADD CONSTRAINT matrix_book_entries_slot_key UNIQUE (customer_id, slot);
