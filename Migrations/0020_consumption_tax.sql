-- Consumption tax on orders (issue 14). Items carry their tax rate class (standard 10 %, reduced
-- 8 % for food and beverages); an order keeps, as they were at checkout, each line's class, its
-- subtotal, its shipping fee, whether prices included tax, and its tax per rate (the qualified
-- invoice's figures: `[{"tax_class","rate_percent","taxable","tax"}]`, amounts in the order's
-- currency), computed once and never again.
ALTER TABLE items ADD COLUMN tax_class text NOT NULL DEFAULT 'standard'
    CONSTRAINT items_tax_class_check CHECK (tax_class IN ('standard', 'reduced'));
ALTER TABLE order_lines ADD COLUMN tax_class text NOT NULL DEFAULT 'standard'
    CONSTRAINT order_lines_tax_class_check CHECK (tax_class IN ('standard', 'reduced'));
ALTER TABLE orders
    ADD COLUMN subtotal_amount bigint NOT NULL DEFAULT 0,
    ADD COLUMN shipping_fee_amount bigint NOT NULL DEFAULT 0 CONSTRAINT orders_shipping_fee_check CHECK (shipping_fee_amount >= 0),
    ADD COLUMN prices_include_tax boolean NOT NULL DEFAULT true,
    ADD COLUMN tax_lines jsonb NOT NULL DEFAULT '[]';

-- Orders placed before: every item was at the standard rate, prices included tax, nothing was
-- charged for shipping, and the tax is the floor of the total's (the shop's default rounding).
UPDATE orders SET subtotal_amount = total_amount,
    tax_lines = CASE WHEN total_amount > 0 THEN jsonb_build_array(jsonb_build_object(
        'tax_class', 'standard', 'rate_percent', 10, 'taxable', total_amount, 'tax', total_amount * 10 / 110))
        ELSE '[]'::jsonb END;
