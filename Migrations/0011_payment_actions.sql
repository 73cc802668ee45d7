-- 3-D Secure: an order whose payment waits on the customer is `requires_action`, with what the
-- app needs to complete it (the PaymentIntent's client secret and the kind of next action) and
-- until when its stock stays reserved; past that the reconciler cancels the payment.
ALTER TABLE orders
    ADD COLUMN action_client_secret text,
    ADD COLUMN action_type text,
    ADD COLUMN action_redirect_url text,
    ADD COLUMN action_expires_at timestamptz,
    DROP CONSTRAINT orders_status_check,
    ADD CONSTRAINT orders_status_check CHECK (
        status IN ('pending_payment', 'requires_action', 'paid', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')),
    ADD CONSTRAINT orders_action_recorded_check CHECK (
        (status = 'requires_action') <= (action_client_secret IS NOT NULL AND action_type IS NOT NULL AND action_expires_at IS NOT NULL));

CREATE INDEX orders_requires_action_idx ON orders (action_expires_at) WHERE status = 'requires_action';
