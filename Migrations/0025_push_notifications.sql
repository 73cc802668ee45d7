-- Push notifications (issue 17). The devices customers register (scene Device), and one push
-- per device and order event: paid, shipped (the first shipment), delivered. The row is written
-- by the order change's own transaction (a trigger on order_events, which every change of an
-- order's status writes), so no change is missed and none is pushed unless it commits; a worker
-- on any instance sends it (PushSender), claiming rows so two never hold one at once.
CREATE TABLE devices (
    token text PRIMARY KEY CONSTRAINT devices_token_check CHECK (token ~ '^[0-9a-f]+$' AND length(token) BETWEEN 16 AND 200),
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    platform text NOT NULL CONSTRAINT devices_platform_check CHECK (platform IN ('ios')),
    locale text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX devices_customer ON devices (customer_id);

-- No foreign key to devices: a device removed while its push waits gives the push up instead
-- of losing the record of it.
CREATE TABLE push_notifications (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    device_token text NOT NULL,
    order_id uuid NOT NULL REFERENCES orders (id),
    event text NOT NULL CONSTRAINT push_notifications_event_check
        CHECK (event IN ('order_paid', 'order_shipped', 'order_delivered')),
    locale text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    -- A worker's claim: its id (every change the worker records names it, so a worker whose
    -- lease ran out changes nothing another now holds), when it was made, and its lease.
    claim_id uuid,
    claimed_at timestamptz,
    claimed_until timestamptz,
    sent_at timestamptz,
    gave_up_at timestamptz,
    last_error text,
    CONSTRAINT push_notifications_once UNIQUE (device_token, order_id, event)
);
CREATE INDEX push_notifications_due ON push_notifications (next_attempt_at) WHERE sent_at IS NULL AND gave_up_at IS NULL;

CREATE FUNCTION queue_order_pushes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    push text := CASE
        -- Paid by the customer, not back to paid after a failed refund.
        WHEN NEW.type = 'status_changed' AND NEW.data->>'to' = 'paid'
            AND NEW.data->>'from' IN ('pending_payment', 'requires_action') THEN 'order_paid'
        -- The first shipment only.
        WHEN NEW.type = 'fulfilment_changed' AND NEW.data->>'from' = 'unfulfilled'
            AND NEW.data->>'to' IN ('partially_shipped', 'shipped') THEN 'order_shipped'
        WHEN NEW.type = 'fulfilment_changed' AND NEW.data->>'to' = 'delivered' THEN 'order_delivered'
    END;
BEGIN
    IF push IS NOT NULL THEN
        INSERT INTO push_notifications (device_token, order_id, event, locale)
        SELECT d.token, o.id, push, d.locale FROM orders o JOIN devices d ON d.customer_id = o.customer_id
        WHERE o.id = NEW.order_id
        ON CONFLICT ON CONSTRAINT push_notifications_once DO NOTHING;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER order_events_queue_pushes AFTER INSERT ON order_events
    FOR EACH ROW EXECUTE FUNCTION queue_order_pushes();
