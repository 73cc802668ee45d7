-- Variants (issue 15): an item has options (size: S, M, L; colour: navy, white) and one variant
-- per combination that exists, each with its own SKU, price and stock. An item without options
-- has exactly one variant.
--
-- Every existing item becomes an item with one variant whose id is the item's id, so every stored
-- reference to an item as a thing to buy (cart lines, order lines, refund lines) already names the
-- right variant: those columns are renamed and nothing is lost.

-- An item's options, in the order the shop shows them, each with its values in order:
-- [{"name": "size", "values": ["S", "M", "L"]}, ...] (the store checks the shape).
ALTER TABLE items
    ADD COLUMN options jsonb NOT NULL DEFAULT '[]',
    ADD CONSTRAINT items_options_array CHECK (jsonb_typeof(options) = 'array' AND jsonb_array_length(options) <= 3);

-- An item's price currency is its variants' currency: the composite key below lets each variant
-- name it, so no variant can be priced in another currency than its item.
ALTER TABLE items ADD CONSTRAINT items_id_price_currency_key UNIQUE (id, price_currency);

-- The variants. `options` maps each of the item's option names to one of its values ({} for an
-- item without options); a removed variant keeps its row (orders and the stock history name it)
-- but leaves the catalog, and its SKU and combination become free again.
CREATE TABLE item_variants (
    id uuid PRIMARY KEY,
    item_id uuid NOT NULL,
    position integer NOT NULL,
    sku text NOT NULL,
    options jsonb NOT NULL DEFAULT '{}',
    price_amount bigint NOT NULL,
    price_currency text NOT NULL,
    stock integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    removed_at timestamptz,
    FOREIGN KEY (item_id, price_currency) REFERENCES items (id, price_currency) ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT item_variants_sku_format CHECK (sku ~ '^[A-Za-z0-9_-]{1,64}$'),
    CONSTRAINT item_variants_options_object CHECK (jsonb_typeof(options) = 'object'),
    CONSTRAINT item_variants_price_amount_range CHECK (price_amount BETWEEN 0 AND 1000000000000),
    CONSTRAINT item_variants_stock_nonnegative CHECK (stock >= 0)
);
CREATE UNIQUE INDEX item_variants_sku_key ON item_variants (sku) WHERE removed_at IS NULL;
CREATE UNIQUE INDEX item_variants_options_key ON item_variants (item_id, options) WHERE removed_at IS NULL;
CREATE INDEX item_variants_item_id_idx ON item_variants (item_id, position);

INSERT INTO item_variants (id, item_id, position, sku, price_amount, price_currency, stock, created_at)
SELECT id, id, 0, sku, price_amount, price_currency, stock, created_at FROM items;

-- Every change of a variant's stock, kept forever: who or what changed it, by how much, and what
-- it left. The first row of each existing variant records the stock it was migrated with.
CREATE TABLE stock_movements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    variant_id uuid NOT NULL REFERENCES item_variants (id) ON DELETE CASCADE,
    delta integer NOT NULL,
    stock_after integer NOT NULL,
    reason text NOT NULL,
    order_id uuid,
    at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT stock_movements_reason_format CHECK (char_length(reason) BETWEEN 1 AND 200),
    CONSTRAINT stock_movements_stock_after_nonnegative CHECK (stock_after >= 0)
);
CREATE INDEX stock_movements_variant_id_idx ON stock_movements (variant_id, id DESC);
INSERT INTO stock_movements (variant_id, delta, stock_after, reason)
SELECT id, stock, stock, 'migrated' FROM item_variants;

-- Stock lives on the variants now; `items.price_*` is the lowest price of the item's variants
-- (what a list shows and sorts by), kept by the store in the transaction that changes a price.
ALTER TABLE items DROP COLUMN stock;

-- Carts, orders and refunds name the variant bought.
ALTER TABLE cart_lines DROP CONSTRAINT cart_lines_item_id_fkey;
ALTER TABLE cart_lines RENAME COLUMN item_id TO variant_id;
ALTER TABLE cart_lines ADD FOREIGN KEY (variant_id) REFERENCES item_variants (id) ON DELETE CASCADE;
ALTER INDEX cart_lines_item_id_idx RENAME TO cart_lines_variant_id_idx;

ALTER TABLE refund_lines DROP CONSTRAINT refund_lines_order_id_item_id_fkey;
ALTER TABLE order_lines DROP CONSTRAINT order_lines_item_id_fkey;
ALTER TABLE order_lines RENAME COLUMN item_id TO variant_id;
ALTER TABLE order_lines ADD FOREIGN KEY (variant_id) REFERENCES item_variants (id);
ALTER INDEX order_lines_item_id_idx RENAME TO order_lines_variant_id_idx;
-- What the line bought, as it was at checkout: the item, the SKU, and the variant's values in
-- the order of the item's options ([{"name": "size", "value": "S"}, ...]).
ALTER TABLE order_lines
    ADD COLUMN item_id uuid,
    ADD COLUMN sku text,
    ADD COLUMN options jsonb NOT NULL DEFAULT '[]',
    ADD CONSTRAINT order_lines_options_array CHECK (jsonb_typeof(options) = 'array');
UPDATE order_lines l SET item_id = v.item_id, sku = v.sku FROM item_variants v WHERE v.id = l.variant_id;
ALTER TABLE order_lines ALTER COLUMN item_id SET NOT NULL, ALTER COLUMN sku SET NOT NULL;
CREATE INDEX order_lines_item_id_idx ON order_lines (item_id);

ALTER TABLE refund_lines RENAME COLUMN item_id TO variant_id;
ALTER TABLE refund_lines ADD FOREIGN KEY (order_id, variant_id) REFERENCES order_lines (order_id, variant_id);
