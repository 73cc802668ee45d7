-- Refunds are recorded as the payment provider states them. An order whose refund is not settled
-- (no answer, or the provider's refund is pending or requires action) is `refund_pending`, its
-- stock still out, until the reconciler sees the refund succeed (refunded, restocked) or fail
-- (paid again). The provider's refund id and last seen status are kept on the order.
ALTER TABLE orders
    ADD COLUMN refund_id text,
    ADD COLUMN refund_status text,
    DROP CONSTRAINT orders_status_check,
    ADD CONSTRAINT orders_status_check
        CHECK (status IN ('pending_payment', 'paid', 'payment_failed', 'cancelled', 'refund_pending', 'refunded')),
    ADD CONSTRAINT orders_refund_status_check
        CHECK (refund_status IN ('pending', 'requires_action', 'succeeded', 'failed', 'canceled')),
    ADD CONSTRAINT orders_refund_recorded_check CHECK ((refund_id IS NULL) = (refund_status IS NULL));
-- The reconciler's other work list.
CREATE INDEX orders_refund_pending_idx ON orders (updated_at) WHERE status = 'refund_pending';
