-- MatrixBook's optional fields with examples of types other than text (the generated tests send
-- each example, an optional field's too).
ALTER TABLE matrix_book_entries
    ADD COLUMN floor integer CONSTRAINT matrix_book_entries_floor_check CHECK (floor BETWEEN 1 AND 99),
    ADD COLUMN place text CONSTRAINT matrix_book_entries_place_check CHECK (place IN ('home', 'work')),
    ADD COLUMN deposit_amount bigint CONSTRAINT matrix_book_entries_deposit_amount_check CHECK (deposit_amount BETWEEN 0 AND 100000),
    ADD COLUMN deposit_currency text CONSTRAINT matrix_book_entries_deposit_currency_check CHECK (deposit_currency ~ '^[A-Z]{3}$'),
    ADD CONSTRAINT matrix_book_entries_deposit_complete_check CHECK ((deposit_amount IS NULL) = (deposit_currency IS NULL));
