-- Finding items (issue 15): a list sorted by newest, price (either way), rating or name, each a
-- keyset order ending in the id so pages never skip or repeat, and filtered by variant (price,
-- stock, option values). Every sort has its index, overall and within a category.

-- The rating as an exact integer to sort and page by: the mean in millionths of a star, -1 for
-- an item without reviews (last in the descending sort), kept by PostgreSQL with every review.
ALTER TABLE items ADD COLUMN rating_key bigint
    GENERATED ALWAYS AS (CASE WHEN review_count > 0 THEN rating_sum * 1000000 / review_count ELSE -1 END) STORED;

-- Names sort by code point: the same order on every machine, whatever its locale.
ALTER TABLE items ALTER COLUMN name TYPE text COLLATE "C";

CREATE INDEX items_price_amount_id_idx ON items (price_amount, id);
CREATE INDEX items_rating_key_id_idx ON items (rating_key, id);
CREATE INDEX items_name_id_idx ON items (name, id);
CREATE INDEX items_category_price_amount_id_idx ON items (category, price_amount, id);
CREATE INDEX items_category_rating_key_id_idx ON items (category, rating_key, id);
CREATE INDEX items_category_name_id_idx ON items (category, name, id);

-- Filters by option value (`option.size=M`): live variants holding the value.
CREATE INDEX item_variants_options_gin_idx ON item_variants USING gin (options jsonb_path_ops) WHERE removed_at IS NULL;

-- The facets read each matching item's live variants through this index alone (their values,
-- price and stock are in it).
CREATE INDEX item_variants_item_id_facets_idx ON item_variants (item_id) INCLUDE (options, price_amount, stock)
    WHERE removed_at IS NULL;

-- A variant's values as (name, value) rows, for counting them. jsonb_each_text is estimated at
-- 100 rows a call, which made the planner expect millions of rows (and compile the statement
-- with JIT); a variant has at most 3. STRICT keeps the planner from inlining it, so its estimate
-- holds.
CREATE FUNCTION variant_option_values(options jsonb) RETURNS TABLE (name text, value text)
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE ROWS 3
    AS $$ SELECT key, value FROM jsonb_each_text(options) $$;
