-- Orders: prices frozen at checkout, payment state, and the client's idempotency key, unique per
-- customer so that a retried checkout finds its first order instead of making a second.
CREATE TABLE orders (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    status text NOT NULL,
    total_amount bigint NOT NULL,
    total_currency text NOT NULL,
    payment_method text NOT NULL,
    payment_intent_id text,
    decline_code text,
    idempotency_key text NOT NULL,
    request_fingerprint text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT orders_idempotency_key UNIQUE (customer_id, idempotency_key),
    CONSTRAINT orders_status_check CHECK (status IN ('pending_payment', 'paid', 'payment_failed', 'cancelled', 'refunded')),
    CONSTRAINT orders_total_amount_check CHECK (total_amount >= 0),
    CONSTRAINT orders_total_currency_check CHECK (total_currency ~ '^[A-Z]{3}$')
);
CREATE INDEX orders_customer_id_created_at_idx ON orders (customer_id, created_at DESC, id DESC);
-- The reconciler's work list.
CREATE INDEX orders_pending_payment_idx ON orders (created_at) WHERE status = 'pending_payment';

CREATE TABLE order_lines (
    order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    item_id uuid NOT NULL REFERENCES items (id),
    name text NOT NULL,
    unit_price_amount bigint NOT NULL,
    unit_price_currency text NOT NULL,
    quantity integer NOT NULL,
    PRIMARY KEY (order_id, item_id),
    CONSTRAINT order_lines_quantity_check CHECK (quantity BETWEEN 1 AND 99),
    CONSTRAINT order_lines_unit_price_amount_check CHECK (unit_price_amount >= 0)
);
CREATE INDEX order_lines_item_id_idx ON order_lines (item_id);
