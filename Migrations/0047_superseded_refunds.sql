-- The refunds of a customer's earlier cancels of an order: a cancel claimed again after its
-- refund failed starts with no refund recorded (session 25), and the earlier refund's id moves
-- here. A stale answer about one of them (a reconciler that read the first claim and answers
-- after the second) is then refused by the store instead of settling the second claim from the
-- first's outcome (diff review).
ALTER TABLE orders ADD COLUMN superseded_refund_ids text[] NOT NULL DEFAULT '{}';
