-- A new wishlist entry names an item on sale: an archived one is refused as an item that does not
-- exist (the generated store answers a violated `wishlist_entries_item_id_fkey` with 422 naming
-- `item_id`). Entries made before the archive stay, as orders and reviews do.
CREATE FUNCTION wishlist_entries_of_items_on_sale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM items WHERE id = NEW.item_id AND archived_at IS NOT NULL) THEN
        RAISE EXCEPTION 'item % is archived', NEW.item_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'wishlist_entries_item_id_fkey';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER wishlist_entries_of_items_on_sale BEFORE INSERT OR UPDATE OF item_id ON wishlist_entries
    FOR EACH ROW EXECUTE FUNCTION wishlist_entries_of_items_on_sale();
