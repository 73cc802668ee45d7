-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixOwned.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixOwned: A customer's records with every field type, each required.
CREATE TABLE matrix_owned_records (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    item_id uuid NOT NULL REFERENCES items (id),
    flagged boolean NOT NULL DEFAULT false,
    label text NOT NULL,
    body text NOT NULL DEFAULT '',
    count integer NOT NULL,
    total bigint NOT NULL DEFAULT 0,
    urgent boolean NOT NULL DEFAULT false,
    price_amount bigint NOT NULL,
    price_currency text NOT NULL,
    due_at timestamptz NOT NULL,
    region text NOT NULL DEFAULT 'JP',
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_owned_records_label_check CHECK (char_length(label) BETWEEN 1 AND 40),
    CONSTRAINT matrix_owned_records_body_check CHECK (char_length(body) <= 2000),
    CONSTRAINT matrix_owned_records_count_check CHECK (count BETWEEN 0 AND 99),
    CONSTRAINT matrix_owned_records_total_check CHECK (total >= 0),
    CONSTRAINT matrix_owned_records_price_amount_check CHECK (price_amount >= 0),
    CONSTRAINT matrix_owned_records_price_currency_check CHECK (price_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT matrix_owned_records_region_check CHECK (region IN ('JP', 'US', 'in-stock', 'PayPal', '3ds')),
    CONSTRAINT matrix_owned_records_item_id_key UNIQUE (customer_id, item_id)
);

CREATE INDEX matrix_owned_records_customer_id_idx ON matrix_owned_records (customer_id, created_at DESC, id DESC);
CREATE INDEX matrix_owned_records_item_id_idx ON matrix_owned_records (item_id);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER matrix_owned_records_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON matrix_owned_records
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
