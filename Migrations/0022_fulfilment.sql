-- Fulfilment (issue 14). A paid order is shipped in one or more shipments, each of some of its
-- lines' units, then delivered. How far it is shipped is its own column beside the payment's
-- status (a refund works the same on a shipped order); the answer's `status` shows it once paid.
-- Every change of an order is an event kept forever: status and fulfilment changes written by a
-- trigger, so none is missed, with the actor the transaction names (`storefront.actor`, set by
-- the store that knows it; `system` otherwise), and shipments written by the store with their
-- tracking. Events are never updated or deleted.
ALTER TABLE orders
    ADD COLUMN fulfilment_status text NOT NULL DEFAULT 'unfulfilled'
        CONSTRAINT orders_fulfilment_status_check CHECK (
            fulfilment_status IN ('unfulfilled', 'partially_shipped', 'shipped', 'delivered'));
ALTER TABLE order_lines
    ADD COLUMN shipped_quantity integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT order_lines_shipped_quantity_check CHECK (shipped_quantity BETWEEN 0 AND quantity);

CREATE TABLE shipments (
    id uuid PRIMARY KEY,
    order_id uuid NOT NULL REFERENCES orders (id),
    carrier text NOT NULL CONSTRAINT shipments_carrier_check CHECK (char_length(carrier) BETWEEN 1 AND 100),
    tracking_number text NOT NULL CONSTRAINT shipments_tracking_number_check CHECK (char_length(tracking_number) BETWEEN 1 AND 100),
    created_at timestamptz NOT NULL,
    delivered_at timestamptz
);
CREATE INDEX shipments_order_id_idx ON shipments (order_id, created_at);

CREATE TABLE shipment_lines (
    shipment_id uuid NOT NULL REFERENCES shipments (id),
    variant_id uuid NOT NULL,
    quantity integer NOT NULL CONSTRAINT shipment_lines_quantity_check CHECK (quantity BETWEEN 1 AND 99),
    PRIMARY KEY (shipment_id, variant_id)
);

CREATE TABLE order_events (
    id bigserial PRIMARY KEY,
    order_id uuid NOT NULL REFERENCES orders (id),
    type text NOT NULL,
    at timestamptz NOT NULL,
    actor text NOT NULL CONSTRAINT order_events_actor_check CHECK (actor IN ('customer', 'staff', 'system')),
    data jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX order_events_order_id_idx ON order_events (order_id, id);

CREATE FUNCTION order_event_actor() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT COALESCE(NULLIF(current_setting('storefront.actor', true), ''), 'system')
$$;

CREATE FUNCTION record_order_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'placed', NEW.created_at, order_event_actor(), '{}');
        RETURN NEW;
    END IF;
    IF NEW.status IS DISTINCT FROM OLD.status THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'status_changed', now(), order_event_actor(), jsonb_build_object('from', OLD.status, 'to', NEW.status));
    END IF;
    IF NEW.fulfilment_status IS DISTINCT FROM OLD.fulfilment_status THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'fulfilment_changed', now(), order_event_actor(),
                jsonb_build_object('from', OLD.fulfilment_status, 'to', NEW.fulfilment_status));
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER orders_record_event AFTER INSERT OR UPDATE OF status, fulfilment_status ON orders
    FOR EACH ROW EXECUTE FUNCTION record_order_event();

-- Orders from before have their placing as their first event.
INSERT INTO order_events (order_id, type, at, actor, data)
SELECT id, 'placed', created_at, 'customer', '{}' FROM orders ORDER BY created_at, id;

-- The staff's list: newest first, by status.
CREATE INDEX orders_created_at_idx ON orders (created_at DESC, id DESC);
CREATE INDEX order_lines_sku_idx ON order_lines (sku);
