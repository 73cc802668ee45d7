-- The catalog: items for sale. Rules the application checks are repeated here as constraints
-- so that no code path (or concurrent one) can store what the rules forbid.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE items (
    id uuid PRIMARY KEY,
    sku text NOT NULL,
    name text NOT NULL,
    description text NOT NULL DEFAULT '',
    category text NOT NULL,
    price_amount bigint NOT NULL,
    price_currency text NOT NULL,
    stock integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT items_sku_key UNIQUE (sku),
    CONSTRAINT items_sku_format CHECK (sku ~ '^[A-Za-z0-9_-]{1,64}$'),
    CONSTRAINT items_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 200),
    CONSTRAINT items_description_length CHECK (char_length(description) <= 5000),
    CONSTRAINT items_category_length CHECK (char_length(btrim(category)) BETWEEN 1 AND 100),
    CONSTRAINT items_price_amount_range CHECK (price_amount BETWEEN 0 AND 1000000000000),
    CONSTRAINT items_price_currency_format CHECK (price_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT items_stock_nonnegative CHECK (stock >= 0)
);

-- Keyset pagination, newest first, overall and within a category.
CREATE INDEX items_created_at_id_idx ON items (created_at DESC, id DESC);
CREATE INDEX items_category_created_at_id_idx ON items (category, created_at DESC, id DESC);
-- Substring search over name and description (ILIKE '%word%' uses this index).
CREATE INDEX items_search_trgm_idx ON items USING gin ((name || ' ' || description) gin_trgm_ops);
