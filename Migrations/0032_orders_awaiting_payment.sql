-- A checkout counts the customer's orders waiting for payment (MAX_ORDERS_AWAITING_PAYMENT), under
-- the lock of the customer's row: this index finds them without reading the customer's history.
CREATE INDEX orders_awaiting_payment_idx ON orders (customer_id) WHERE status IN ('pending_payment', 'requires_action');
