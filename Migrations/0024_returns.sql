-- Returns (issue 14): once shipped, a customer asks for a return of shipped units; the staff
-- approve or refuse it, and on receipt it is refunded (a staff refund of its lines, restocked as
-- the staff decide). A unit is in one return at most, refused ones aside.
CREATE TABLE returns (
    id uuid PRIMARY KEY,
    order_id uuid NOT NULL REFERENCES orders (id),
    status text NOT NULL CONSTRAINT returns_status_check CHECK (status IN ('requested', 'approved', 'refused', 'received')),
    reason text NOT NULL CONSTRAINT returns_reason_check CHECK (char_length(reason) BETWEEN 1 AND 500),
    restock boolean,
    refund_id uuid REFERENCES refunds (id),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX returns_order_id_idx ON returns (order_id, created_at);

CREATE TABLE return_lines (
    return_id uuid NOT NULL REFERENCES returns (id),
    variant_id uuid NOT NULL,
    quantity integer NOT NULL CONSTRAINT return_lines_quantity_check CHECK (quantity BETWEEN 1 AND 99),
    PRIMARY KEY (return_id, variant_id)
);
