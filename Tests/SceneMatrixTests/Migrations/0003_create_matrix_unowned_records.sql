-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixUnowned.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixUnowned: Records staff manage and anyone reads, every field optional.
CREATE TABLE matrix_unowned_records (
    id uuid PRIMARY KEY,
    item_id uuid REFERENCES items (id),
    code text,
    note text,
    rank integer,
    views bigint,
    visible boolean,
    fee_amount bigint,
    fee_currency text,
    starts_at timestamptz,
    state text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_unowned_records_code_key UNIQUE (code),
    CONSTRAINT matrix_unowned_records_code_check CHECK (char_length(code) <= 20),
    CONSTRAINT matrix_unowned_records_rank_check CHECK (rank BETWEEN 1 AND 5),
    CONSTRAINT matrix_unowned_records_fee_amount_check CHECK (fee_amount >= 0),
    CONSTRAINT matrix_unowned_records_fee_currency_check CHECK (fee_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT matrix_unowned_records_fee_complete_check CHECK ((fee_amount IS NULL) = (fee_currency IS NULL)),
    CONSTRAINT matrix_unowned_records_state_check CHECK (state IN ('draft', 'in-review', 'LIVE'))
);

CREATE INDEX matrix_unowned_records_list_idx ON matrix_unowned_records (created_at DESC, id DESC);
CREATE INDEX matrix_unowned_records_item_id_idx ON matrix_unowned_records (item_id);
