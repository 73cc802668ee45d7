-- The item_changed notifications of 0027, refined:
-- - an update that moves a variant or an image to another item names both items (the update
--   triggers now see the rows before the change too: `changed_before`);
-- - at most 101 distinct items are collected from a statement's rows (past 100 the payload is `*`
--   anyway), so a bulk statement does not aggregate every row it touched;
-- - `storefront.item_notifications = 'off'` (a database setting) turns them off, for a shop whose
--   instances all run without the item cache: PostgreSQL commits notifying transactions one at a
--   time (they hold a lock through the commit's WAL flush), which costs checkouts some throughput
--   (Benchmarks/README.md). `ItemCacheListener`'s heartbeats (`heartbeat <instance> <time>`, on the
--   same channel) stop with them, so no cache trusts itself meanwhile.
CREATE OR REPLACE FUNCTION notify_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids uuid[];
    payload text;
BEGIN
    -- PostgreSQL commits notifying transactions one at a time (they hold a lock through the
    -- commit's WAL flush), so a shop whose instances all run with ITEM_CACHE_SIZE=0 may spare its
    -- checkouts this: ALTER DATABASE ... SET storefront.item_notifications = 'off'.
    IF current_setting('storefront.item_notifications', true) = 'off' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'TRUNCATE' THEN
        payload := '*';
    ELSE
        -- At most 101 distinct items are collected: past 100 the payload is `*` anyway. An update
        -- may move a variant or an image to another item: both items changed.
        IF TG_TABLE_NAME = 'items' AND TG_OP = 'UPDATE' THEN
            SELECT array_agg(id) INTO ids FROM (SELECT id FROM changed UNION SELECT id FROM changed_before LIMIT 101) AS moved;
        ELSIF TG_TABLE_NAME = 'items' THEN
            SELECT array_agg(id) INTO ids FROM (SELECT DISTINCT id FROM changed LIMIT 101) AS gone;
        ELSIF TG_OP = 'UPDATE' THEN
            SELECT array_agg(item_id) INTO ids
            FROM (SELECT item_id FROM changed UNION SELECT item_id FROM changed_before LIMIT 101) AS moved;
        ELSE
            SELECT array_agg(item_id) INTO ids FROM (SELECT DISTINCT item_id FROM changed LIMIT 101) AS touched;
        END IF;
        payload := CASE WHEN cardinality(ids) > 100 THEN '*' ELSE array_to_string(ids, ',') END;
    END IF;
    IF payload IS NOT NULL THEN
        PERFORM pg_notify('item_changed', payload);
    END IF;
    RETURN NULL;
END
$$;

DO $$
DECLARE
    target text;
BEGIN
    FOREACH target IN ARRAY ARRAY['items', 'item_variants', 'item_images'] LOOP
        EXECUTE format('DROP TRIGGER %I ON %I', target || '_update_notify', target);
        EXECUTE format(
            'CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS changed_before NEW TABLE AS changed '
            'FOR EACH STATEMENT EXECUTE FUNCTION notify_item_changed()',
            target || '_update_notify', target);
    END LOOP;
END
$$;
