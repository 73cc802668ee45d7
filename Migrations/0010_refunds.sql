-- Refunds the staff issue, partial or full, each its own row with the provider's status. The
-- database bounds them: `orders.refunded_amount` holds what refunds not failed or canceled claim
-- (reserved in the transaction that inserts the refund, given back when the provider answers
-- failed or canceled) and can never exceed what was captured; `order_lines.returned_quantity`
-- holds the quantities refunds claim to restock and can never exceed what was ordered.
ALTER TABLE orders
    ADD COLUMN refunded_amount bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT orders_refunded_amount_check CHECK (refunded_amount BETWEEN 0 AND total_amount);

ALTER TABLE order_lines
    ADD COLUMN returned_quantity integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT order_lines_returned_quantity_check CHECK (returned_quantity BETWEEN 0 AND quantity);

CREATE TABLE refunds (
    id uuid PRIMARY KEY,
    order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    amount bigint NOT NULL,
    currency text NOT NULL,
    reason text NOT NULL,
    restock boolean NOT NULL,
    idempotency_key text NOT NULL,
    request_fingerprint text NOT NULL,
    provider_refund_id text,
    status text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT refunds_idempotency_key UNIQUE (order_id, idempotency_key),
    CONSTRAINT refunds_amount_check CHECK (amount > 0),
    CONSTRAINT refunds_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
    CONSTRAINT refunds_reason_check CHECK (reason IN ('duplicate', 'fraudulent', 'requested_by_customer', 'other')),
    CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'requires_action', 'succeeded', 'failed', 'canceled'))
);
CREATE INDEX refunds_order_id_idx ON refunds (order_id, created_at);
-- The reconciler's work list of refunds the provider has not settled.
CREATE INDEX refunds_unsettled_idx ON refunds (updated_at) WHERE status IN ('pending', 'requires_action');

-- The lines a refund restocks when it succeeds.
CREATE TABLE refund_lines (
    refund_id uuid NOT NULL REFERENCES refunds (id) ON DELETE CASCADE,
    order_id uuid NOT NULL,
    item_id uuid NOT NULL,
    quantity integer NOT NULL,
    PRIMARY KEY (refund_id, item_id),
    FOREIGN KEY (order_id, item_id) REFERENCES order_lines (order_id, item_id),
    CONSTRAINT refund_lines_quantity_check CHECK (quantity BETWEEN 1 AND 99)
);
