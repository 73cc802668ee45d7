-- 0039's check of a wishlist entry's item, made right:
--   * It fired on every update that set `item_id`, and the generated PATCH sets it to itself
--     when the client leaves it out: an entry of an item archived since could no longer be
--     edited (422 naming `item_id`, which the client never sent). An entry keeps its item; only
--     a new item is checked.
--   * It read `archived_at` without a lock, so an entry added while the item was being archived
--     could commit after the archive. It now takes the item's row FOR KEY SHARE as a cart line
--     does (0038): an archive (which locks the item FOR UPDATE) is waited for, and the row is
--     read again after it.
CREATE OR REPLACE FUNCTION wishlist_entries_of_items_on_sale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.item_id = OLD.item_id THEN
        RETURN NEW;
    END IF;
    PERFORM 1 FROM items WHERE id = NEW.item_id AND archived_at IS NULL FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'item % is archived', NEW.item_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'wishlist_entries_item_id_fkey';
    END IF;
    RETURN NEW;
END
$$;

-- Fired after the customer's check (0035's wishlist_entries_of_live_customers; a row's triggers
-- fire in the order of their names), so an entry locks the customer's row, then the item's, as
-- a cart line does (0038).
ALTER TRIGGER wishlist_entries_of_items_on_sale ON wishlist_entries RENAME TO wishlist_entries_of_on_sale_items;
