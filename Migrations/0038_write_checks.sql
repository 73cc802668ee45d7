-- One trigger makes every check of a new cart line, in one fixed lock order, instead of three
-- fired in the alphabetical order of their names (0033's bound, 0034 and 0036's variant and
-- item, 0035's customer). Locking the item and the variant in one statement (`FOR KEY SHARE OF
-- v, i`) could take them in either order and deadlock with a variant's removal, which locks the
-- item first (a cart write then failed with 40P01).
--   1. The customer's row, FOR NO KEY UPDATE: racing writes of one customer count the cart one
--      after another (the bound of 100 lines), an account deletion (which holds the row FOR
--      UPDATE) is waited for, and a deleted customer is refused.
--   2. The item's row, FOR KEY SHARE: an archive or a variant's removal (each locks the item FOR
--      UPDATE before it deletes the lines) is waited for; the line is then either deleted by it
--      or, read after it in the next statement, refused. Stock updates take no key lock and do
--      not wait on it.
--   3. The variant on sale, and the bound.
DROP TRIGGER cart_lines_within_bound ON cart_lines;
DROP TRIGGER cart_lines_of_live_variants ON cart_lines;
DROP TRIGGER cart_lines_of_live_customers ON cart_lines;
DROP FUNCTION cart_lines_within_bound();
DROP FUNCTION cart_lines_of_live_variants();

CREATE FUNCTION cart_line_checks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM customers WHERE id = NEW.customer_id AND deleted_at IS NULL FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'customer % is deleted', NEW.customer_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'customer_deleted';
    END IF;
    PERFORM 1 FROM items WHERE id = (SELECT item_id FROM item_variants WHERE id = NEW.variant_id) AND archived_at IS NULL
        FOR KEY SHARE;
    IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM item_variants WHERE id = NEW.variant_id AND removed_at IS NULL) THEN
        RAISE EXCEPTION 'variant % is not on sale', NEW.variant_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'cart_lines_live_variant';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM cart_lines WHERE customer_id = NEW.customer_id AND variant_id = NEW.variant_id)
       AND (SELECT count(*) FROM cart_lines WHERE customer_id = NEW.customer_id) >= 100 THEN
        RAISE EXCEPTION 'a cart holds at most 100 lines'
            USING ERRCODE = 'check_violation', CONSTRAINT = 'cart_lines_per_customer';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER cart_line_checks BEFORE INSERT OR UPDATE OF customer_id, variant_id ON cart_lines
    FOR EACH ROW EXECUTE FUNCTION cart_line_checks();

-- A review's photo is its author's: none is added once the account is deleted (0035 guards
-- the review itself).
CREATE FUNCTION review_photos_of_live_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM customers c JOIN reviews r ON r.customer_id = c.id
    WHERE r.id = NEW.review_id AND c.deleted_at IS NULL FOR KEY SHARE OF c;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the author of review % is deleted', NEW.review_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'customer_deleted';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER review_photos_of_live_customers BEFORE INSERT ON review_photos
    FOR EACH ROW EXECUTE FUNCTION review_photos_of_live_customers();

-- A deleted account's row keeps only what the deletion left: a settings or password change that
-- waited on the deletion's lock (or came after it) is refused instead of writing a name, an email
-- or a password hash back onto it.
CREATE FUNCTION customers_stay_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.deleted_at IS NOT NULL THEN
        RAISE EXCEPTION 'customer % is deleted', OLD.id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'customer_deleted';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER customers_stay_deleted BEFORE UPDATE ON customers
    FOR EACH ROW EXECUTE FUNCTION customers_stay_deleted();
