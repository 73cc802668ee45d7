-- Carts: one line per customer and item. Prices are not stored: a cart always shows the item's
-- current price; checkout freezes prices into the order.
CREATE TABLE cart_lines (
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    quantity integer NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (customer_id, item_id),
    CONSTRAINT cart_lines_quantity_range CHECK (quantity BETWEEN 1 AND 99)
);
CREATE INDEX cart_lines_item_id_idx ON cart_lines (item_id);
