-- MatrixBook's label, once per customer.
ALTER TABLE matrix_book_entries ADD CONSTRAINT matrix_book_entries_label_key UNIQUE (customer_id, label);
