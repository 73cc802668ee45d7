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
-- restocked by anything but a return's receipt (a refund keyed by its return), up to what has not
-- shipped, were the withdrawn.
UPDATE order_lines l
SET withdrawn_quantity = LEAST(l.quantity - l.shipped_quantity, GREATEST(0, l.returned_quantity - COALESCE((
    SELECT sum(rl.quantity)
    FROM refunds f JOIN refund_lines rl ON rl.refund_id = f.id
    WHERE f.order_id = l.order_id AND rl.variant_id = l.variant_id AND f.restock AND f.idempotency_key LIKE 'return-%'
      AND f.status NOT IN ('failed', 'canceled')
), 0)))
WHERE l.returned_quantity > 0;

-- A staff refund not settled yet holds its share, given back if it fails: its units, up to what
-- its line withdrew, the line's unsettled refunds counted oldest first.
UPDATE refund_lines rl
SET withdrawn = share.withdrawn
FROM (
    SELECT rl2.refund_id, rl2.variant_id,
           LEAST(rl2.quantity, GREATEST(0, l.withdrawn_quantity - COALESCE(sum(rl2.quantity) OVER (
               PARTITION BY rl2.order_id, rl2.variant_id ORDER BY f.created_at, f.id
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS withdrawn
    FROM refund_lines rl2
    JOIN refunds f ON f.id = rl2.refund_id
    JOIN order_lines l ON l.order_id = rl2.order_id AND l.variant_id = rl2.variant_id
    WHERE f.restock AND f.status IN ('pending', 'requires_action') AND f.idempotency_key NOT LIKE 'return-%'
) share
WHERE rl.refund_id = share.refund_id AND rl.variant_id = share.variant_id;

-- Orders the old count left partly shipped with nothing to ship: shipped, or delivered when every
-- shipment is.
UPDATE orders o
SET fulfilment_status = CASE
        WHEN EXISTS (SELECT 1 FROM shipments WHERE order_id = o.id AND delivered_at IS NULL) THEN 'shipped'
        ELSE 'delivered' END
WHERE o.status = 'paid' AND o.fulfilment_status = 'partially_shipped'
  AND NOT EXISTS (SELECT 1 FROM order_lines WHERE order_id = o.id AND quantity > shipped_quantity + withdrawn_quantity);
