-- The reference of Benchmarks/checkout: pgbench replaying, statement for statement and transaction
-- for transaction, what the service sends PostgreSQL for one customer's turn (the cart request
-- `PUT /v1/cart/items/{id}`, then `POST /v1/orders` paid at once), without HTTP, Swift or the
-- payment provider. Captured with log_statement = all (one turn, as Benchmarks/README.md says);
-- re-capture it when a statement on that path changes.
--
-- Client :client_id is replay customer n (md5('replay' || n), a session whose token hash is
-- sha256('replay' || n)) and takes one of three hot variants (md5('replay-variant' || i)), as the
-- service's customers take one of three hot items; Benchmarks/checkout makes those rows. Values the
-- service binds are pgbench variables or the same constants; instants are now().
\set item random(0, 2)
-- PUT /v1/cart/items/{id}: the session, the item, the line, the cart answered.
SELECT s.customer_id, s.expires_at FROM sessions s JOIN customers c ON c.id = s.customer_id
WHERE s.token_hash = sha256(('replay' || :client_id)::bytea) AND s.expires_at > now() AND s.credentials_version = c.credentials_version;
SELECT id, sku, name, description, category, tax_class, price_amount, price_currency, created_at, review_count, rating_sum, options, archived_at, (SELECT COALESCE(json_agg(json_build_array(v.id, v.sku, v.options, v.price_amount, v.price_currency, v.stock) ORDER BY v.position, v.id), '[]') FROM item_variants v WHERE v.item_id = items.id AND v.removed_at IS NULL) AS variants, (SELECT COALESCE(json_agg(json_build_array(m.id, m.filename, m.alt, m.variant_id, m.position) ORDER BY m.position, m.id), '[]') FROM item_images m WHERE m.item_id = items.id) AS images FROM items WHERE id = md5('replay-item' || :item)::uuid;
INSERT INTO cart_lines (customer_id, variant_id, quantity) VALUES (md5('replay' || :client_id)::uuid, md5('replay-variant' || :item)::uuid, 1)
ON CONFLICT (customer_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity;
SELECT l.variant_id, v.item_id, v.sku, v.options, i.options AS item_options, i.name, v.price_amount, v.price_currency, l.quantity, i.tax_class
FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id JOIN items i ON i.id = v.item_id
WHERE l.customer_id = md5('replay' || :client_id)::uuid ORDER BY l.updated_at, l.variant_id;
-- POST /v1/orders: the session, the checkout's rate limit, the placing transaction, the order read.
SELECT s.customer_id, s.expires_at FROM sessions s JOIN customers c ON c.id = s.customer_id
WHERE s.token_hash = sha256(('replay' || :client_id)::bytea) AND s.expires_at > now() AND s.credentials_version = c.credentials_version;
WITH taken AS (
    INSERT INTO rate_limits AS r (key, refilled_at) VALUES ('checkout/customer/replay' || :client_id, now() + make_interval(secs => 0.0006))
    ON CONFLICT (key) DO UPDATE SET refilled_at = greatest(r.refilled_at, now()) + make_interval(secs => 0.0006)
    WHERE greatest(r.refilled_at, now()) + make_interval(secs => 0.0006) <= now() + make_interval(secs => 60)
    RETURNING 1
)
SELECT EXISTS (SELECT FROM taken) AS taken,
    (SELECT extract(epoch FROM refilled_at - now())::float8 FROM rate_limits WHERE key = 'checkout/customer/replay' || :client_id) AS ahead;
BEGIN ISOLATION LEVEL READ COMMITTED;
SELECT set_config('storefront.actor', 'customer', true) FROM customers WHERE id = md5('replay' || :client_id)::uuid FOR NO KEY UPDATE;
SELECT l.variant_id, l.quantity, v.item_id, v.sku, v.options, i.options AS item_options, i.name, v.price_amount, v.price_currency, i.tax_class,
       (v.removed_at IS NOT NULL OR i.archived_at IS NOT NULL) AS removed,
       (SELECT string_agg(o.id::text, ',' ORDER BY o.created_at, o.id) FROM orders o
        WHERE o.customer_id = md5('replay' || :client_id)::uuid AND o.id <> md5('replay-order')::uuid
          AND o.status IN ('pending_payment', 'requires_action')) AS awaiting,
       (SELECT o.id FROM orders o WHERE o.customer_id = md5('replay' || :client_id)::uuid AND o.id <> md5('replay-order')::uuid
          AND o.status = 'pending_payment' AND o.created_at > now() - interval '93 seconds' ORDER BY o.created_at, o.id LIMIT 1) AS paying
FROM cart_lines l JOIN item_variants v ON v.id = l.variant_id JOIN items i ON i.id = v.item_id
WHERE l.customer_id = md5('replay' || :client_id)::uuid ORDER BY l.variant_id;
SELECT 1 FROM shipping_methods WHERE active LIMIT 1;
INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key, request_fingerprint, created_at,
                    updated_at, subtotal_amount, shipping_fee_amount, prices_include_tax, tax_lines, shipping)
VALUES (gen_random_uuid(), md5('replay' || :client_id)::uuid, 'pending_payment', 980, 'JPY', 'pm_card_visa', gen_random_uuid()::text,
        'payment_method=pm_card_visa', now(), now(), 980, 0, true,
        '[{"tax": 89, "taxable": 980, "tax_class": "standard", "rate_percent": 10}]'::jsonb, NULL::jsonb)
ON CONFLICT (customer_id, idempotency_key) DO NOTHING RETURNING id AS order_id
\gset
WITH taken AS (
    UPDATE item_variants SET stock = stock - 1
    WHERE id = md5('replay-variant' || :item)::uuid AND stock >= 1 AND removed_at IS NULL AND price_amount = 980 AND price_currency = 'JPY'
      AND sku = 'REPLAY-' || :item AND options = '{}'::jsonb
      AND EXISTS (SELECT 1 FROM items i WHERE i.id = md5('replay-item' || :item)::uuid AND i.id = item_id AND i.name = 'Replay item'
                  AND i.tax_class = 'standard' AND i.options = '[]'::jsonb)
    RETURNING stock
), recorded AS (
    INSERT INTO stock_movements (variant_id, delta, stock_after, reason, order_id, at)
    SELECT md5('replay-variant' || :item)::uuid, -1, stock, 'ordered', :order_id::uuid, now() FROM taken
), ordered AS (
    INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency, quantity, tax_class)
    SELECT :order_id::uuid, md5('replay-variant' || :item)::uuid, md5('replay-item' || :item)::uuid, 'REPLAY-' || :item, '[]'::jsonb,
           'Replay item', 980, 'JPY', 1, 'standard' FROM taken
)
SELECT 1 FROM taken;
SELECT id FROM items WHERE id = ANY(ARRAY[md5('replay-item' || :item)::uuid]) AND archived_at IS NOT NULL;
COMMIT;
SELECT id, customer_id, status, total_amount, total_currency, payment_intent_id, decline_code, refund_id, refund_status, refunded_amount, action_client_secret, action_type, action_redirect_url, action_expires_at, payment_method, created_at, subtotal_amount, shipping_fee_amount, prices_include_tax, tax_lines, shipping, fulfilment_status, (SELECT COALESCE(json_agg(json_build_array(l.variant_id, l.item_id, l.sku, l.options, l.name, l.unit_price_amount, l.unit_price_currency, l.quantity, l.tax_class) ORDER BY l.variant_id), '[]')::text FROM order_lines l WHERE l.order_id = orders.id) AS lines_json, (SELECT COALESCE(json_agg(json_build_array(r.id, r.amount, r.currency, r.status, r.created_at) ORDER BY r.created_at, r.id), '[]')::text FROM refunds r WHERE r.order_id = orders.id) AS refunds_json, (SELECT COALESCE(json_agg(json_build_array(s.id, s.carrier, s.tracking_number, s.created_at, s.delivered_at, (SELECT COALESCE(json_agg(json_build_array(sl.variant_id, sl.quantity) ORDER BY sl.variant_id), '[]') FROM shipment_lines sl WHERE sl.shipment_id = s.id)) ORDER BY s.created_at, s.id), '[]')::text FROM shipments s WHERE s.order_id = orders.id) AS shipments_json, (SELECT COALESCE(json_agg(json_build_array(e.type, e.at, e.actor, e.data) ORDER BY e.id), '[]')::text FROM order_events e WHERE e.order_id = orders.id) AS events_json FROM orders WHERE id = :order_id AND customer_id = md5('replay' || :client_id)::uuid;
-- The payment: attached, then paid (the provider's calls are not replayed).
UPDATE orders SET payment_intent_id = 'pi_replay', updated_at = now() WHERE id = :order_id AND status = 'pending_payment' RETURNING id;
WITH paid AS (
    UPDATE orders SET status = 'paid', updated_at = now()
    WHERE id = :order_id AND status IN ('pending_payment', 'requires_action') RETURNING customer_id
), bought AS (
    SELECT variant_id, quantity FROM order_lines WHERE order_id = :order_id
), cleared AS (
    DELETE FROM cart_lines c USING bought b
    WHERE c.customer_id IN (SELECT customer_id FROM paid) AND c.variant_id = b.variant_id AND c.quantity <= b.quantity
), kept AS (
    UPDATE cart_lines c SET quantity = c.quantity - b.quantity FROM bought b
    WHERE c.customer_id IN (SELECT customer_id FROM paid) AND c.variant_id = b.variant_id AND c.quantity > b.quantity
)
SELECT customer_id FROM orders WHERE id = :order_id;
SELECT id, customer_id, status, total_amount, total_currency, payment_intent_id, decline_code, refund_id, refund_status, refunded_amount, action_client_secret, action_type, action_redirect_url, action_expires_at, payment_method, created_at, subtotal_amount, shipping_fee_amount, prices_include_tax, tax_lines, shipping, fulfilment_status, (SELECT COALESCE(json_agg(json_build_array(l.variant_id, l.item_id, l.sku, l.options, l.name, l.unit_price_amount, l.unit_price_currency, l.quantity, l.tax_class) ORDER BY l.variant_id), '[]')::text FROM order_lines l WHERE l.order_id = orders.id) AS lines_json, (SELECT COALESCE(json_agg(json_build_array(r.id, r.amount, r.currency, r.status, r.created_at) ORDER BY r.created_at, r.id), '[]')::text FROM refunds r WHERE r.order_id = orders.id) AS refunds_json, (SELECT COALESCE(json_agg(json_build_array(s.id, s.carrier, s.tracking_number, s.created_at, s.delivered_at, (SELECT COALESCE(json_agg(json_build_array(sl.variant_id, sl.quantity) ORDER BY sl.variant_id), '[]') FROM shipment_lines sl WHERE sl.shipment_id = s.id)) ORDER BY s.created_at, s.id), '[]')::text FROM shipments s WHERE s.order_id = orders.id) AS shipments_json, (SELECT COALESCE(json_agg(json_build_array(e.type, e.at, e.actor, e.data) ORDER BY e.id), '[]')::text FROM order_events e WHERE e.order_id = orders.id) AS events_json FROM orders WHERE id = :order_id AND customer_id = md5('replay' || :client_id)::uuid;
