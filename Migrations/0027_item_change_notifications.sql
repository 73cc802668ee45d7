-- Every change to what `GET /v1/items/{id}` answers (an item, its variants, its images) sends a
-- notification on channel `item_changed` when its transaction commits, whoever made it: the
-- service, another instance, a migration, a person at psql. Instances keep recently read items in
-- memory (Gateway/Catalog/ItemCache.swift) and forget the ones named here.
--
-- One notification per statement, not per row: its payload is the changed items' ids separated
-- by commas, or `*` (forget everything) when more than 100 items changed at once, which also keeps
-- the payload under PostgreSQL's 8,000 bytes. Inserting an item needs none: an item no one has
-- read yet is not remembered. PostgreSQL allows a transition table only on a trigger of one
-- event, hence a trigger per event.
CREATE FUNCTION notify_item_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    payload text;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        payload := '*';
    ELSIF TG_TABLE_NAME = 'items' THEN
        SELECT CASE WHEN count(DISTINCT id) > 100 THEN '*' ELSE string_agg(DISTINCT id::text, ',') END
        INTO payload FROM changed;
    ELSE
        SELECT CASE WHEN count(DISTINCT item_id) > 100 THEN '*' ELSE string_agg(DISTINCT item_id::text, ',') END
        INTO payload FROM changed;
    END IF;
    IF payload IS NOT NULL THEN
        PERFORM pg_notify('item_changed', payload);
    END IF;
    RETURN NULL;
END
$$;

-- `<table>_<event>_notify` on each table, for each event but an item's insertion.
DO $$
DECLARE
    target text;
    event text;
BEGIN
    FOREACH target IN ARRAY ARRAY['items', 'item_variants', 'item_images'] LOOP
        FOREACH event IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] LOOP
            CONTINUE WHEN target = 'items' AND event = 'INSERT';
            EXECUTE format(
                'CREATE TRIGGER %I AFTER %s ON %I %s FOR EACH STATEMENT EXECUTE FUNCTION notify_item_changed()',
                target || '_' || lower(event) || '_notify', event, target,
                CASE event
                    WHEN 'DELETE' THEN 'REFERENCING OLD TABLE AS changed'
                    WHEN 'TRUNCATE' THEN ''
                    ELSE 'REFERENCING NEW TABLE AS changed'
                END);
        END LOOP;
    END LOOP;
END
$$;
