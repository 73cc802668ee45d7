-- A cart line names a variant on sale: removing a variant deletes its lines
-- (PostgresItemStore.removeVariant), and a line added while the removal runs must not outlive it.
-- The trigger takes a key-share lock on the variant's row, which the removal's FOR UPDATE waits
-- for (and stock updates, which take no key lock, do not): a line inserted first is committed
-- before the removal deletes the variant's lines; one inserted after sees the variant removed
-- (the lock rereads the row) and is refused.
CREATE FUNCTION cart_lines_of_live_variants() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM item_variants WHERE id = NEW.variant_id AND removed_at IS NULL FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'variant % is not on sale', NEW.variant_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'cart_lines_live_variant';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER cart_lines_of_live_variants BEFORE INSERT ON cart_lines
    FOR EACH ROW EXECUTE FUNCTION cart_lines_of_live_variants();
