-- A cart holds at most 100 lines (Cart.maxLines in Sources/Domain/Cart/Cart.swift): a checkout
-- reserves every line, so a cart of the whole catalog could hold its stock. The trigger locks the
-- customer's row before it counts (a volatile function's statements each see what was committed
-- before them), so racing requests of one customer cannot pass the bound. A line already in the
-- cart can always change its quantity, also in a cart that held more lines before this bound.
CREATE FUNCTION cart_lines_within_bound() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM customers WHERE id = NEW.customer_id FOR NO KEY UPDATE;
    IF NOT EXISTS (SELECT 1 FROM cart_lines WHERE customer_id = NEW.customer_id AND variant_id = NEW.variant_id)
       AND (SELECT count(*) FROM cart_lines WHERE customer_id = NEW.customer_id) >= 100 THEN
        RAISE EXCEPTION 'a cart holds at most 100 lines'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'cart_lines_per_customer';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER cart_lines_within_bound BEFORE INSERT ON cart_lines
    FOR EACH ROW EXECUTE FUNCTION cart_lines_within_bound();
