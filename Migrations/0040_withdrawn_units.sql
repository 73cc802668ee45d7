-- Units taken off an order before they shipped: a staff refund that restocks a line puts back
-- what is not shipped yet first, so no later shipment sends a unit that is on the shelf again.
-- A return's receipt restocks units that shipped and came back, and takes nothing off. What is
-- left to ship is quantity - shipped_quantity - withdrawn_quantity; `refund_lines.withdrawn`
-- keeps each refund's share, given back if the refund fails.
ALTER TABLE order_lines
    ADD COLUMN withdrawn_quantity integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT order_lines_withdrawn_quantity_check
        CHECK (withdrawn_quantity >= 0 AND shipped_quantity + withdrawn_quantity <= quantity);

ALTER TABLE refund_lines
    ADD COLUMN withdrawn integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT refund_lines_withdrawn_check CHECK (withdrawn BETWEEN 0 AND quantity);

-- Until now what was left to ship subtracted every restocked unit, a returned one too: the units
-- restocked by anything but a return's receipt, up to what has not shipped, were the withdrawn.
UPDATE order_lines l
SET withdrawn_quantity = LEAST(l.quantity - l.shipped_quantity, GREATEST(0, l.returned_quantity - COALESCE((
    SELECT sum(rl.quantity)
    FROM returns r JOIN refunds f ON f.id = r.refund_id JOIN refund_lines rl ON rl.refund_id = f.id
    WHERE r.order_id = l.order_id AND rl.variant_id = l.variant_id AND f.restock AND f.status NOT IN ('failed', 'canceled')
), 0)))
WHERE l.returned_quantity > 0;
