-- A refund by lines counts its units against each line, restocked or not: the same units cannot
-- be refunded twice (by two staff refunds, or a staff refund and a return's), where before only
-- the order's total bounded the money and only restocked units were counted. A failed or
-- canceled refund gives its units back, as it gives back its amount.
ALTER TABLE order_lines
    ADD COLUMN refunded_quantity integer NOT NULL DEFAULT 0
        CONSTRAINT order_lines_refunded_quantity_check CHECK (refunded_quantity BETWEEN 0 AND quantity);

-- The units refunds by lines already took (capped at the line: refunds made before this count
-- may have taken more).
UPDATE order_lines ol
SET refunded_quantity = LEAST(ol.quantity, taken.units)
FROM (
    SELECT l.order_id, l.variant_id, sum(l.quantity)::integer AS units
    FROM refund_lines l JOIN refunds r ON r.id = l.refund_id
    WHERE r.status NOT IN ('failed', 'canceled')
    GROUP BY l.order_id, l.variant_id
) taken
WHERE ol.order_id = taken.order_id AND ol.variant_id = taken.variant_id;
