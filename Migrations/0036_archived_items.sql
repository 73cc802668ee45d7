-- An item the staff take off sale (POST /v1/admin/items/{id}/archive) keeps its row, for the
-- orders, reviews and stock history that name it: archived_at says since when. It leaves every
-- list, page, facet and feed (their statements ask for archived_at IS NULL) and the home feed's
-- category counts, and takes no cart line.
ALTER TABLE items ADD COLUMN archived_at timestamptz;

-- The counts are of items on sale: archiving one takes it out of its category's, restoring puts
-- it back.
CREATE OR REPLACE FUNCTION category_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.archived_at IS NULL THEN
        UPDATE category_counts SET item_count = item_count - 1 WHERE name = OLD.category;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.archived_at IS NULL THEN
        INSERT INTO category_counts (name, item_count) VALUES (NEW.category, 1)
        ON CONFLICT (name) DO UPDATE SET item_count = category_counts.item_count + 1;
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER items_category_counts ON items;
CREATE TRIGGER items_category_counts AFTER INSERT OR DELETE OR UPDATE OF category, archived_at ON items
    FOR EACH ROW EXECUTE FUNCTION category_counts_track();

-- A cart line names a variant on sale of an item on sale (Migrations/0034 checked the variant
-- alone). The key share is taken on both rows: the archive locks the item's row FOR UPDATE and
-- deletes its lines, so a line added meanwhile is either deleted by it or waits, rereads both
-- rows and is refused.
CREATE OR REPLACE FUNCTION cart_lines_of_live_variants() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM item_variants v JOIN items i ON i.id = v.item_id
    WHERE v.id = NEW.variant_id AND v.removed_at IS NULL AND i.archived_at IS NULL
    FOR KEY SHARE OF v, i;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'variant % is not on sale', NEW.variant_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'cart_lines_live_variant';
    END IF;
    RETURN NEW;
END
$$;
