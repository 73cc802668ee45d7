-- An order's status and fulfilment events take the time the service gave the change
-- (`updated_at`, which every change of either sets from the instance's clock), as its placing,
-- shipment and return events do: they took the transaction's start (`now()`), the database's
-- clock, so one order's events mixed two clocks and a change's event could read earlier than
-- the event of the change that caused it (outside review, attacker).
CREATE OR REPLACE FUNCTION record_order_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'placed', NEW.created_at, order_event_actor(), '{}');
        RETURN NEW;
    END IF;
    IF NEW.status IS DISTINCT FROM OLD.status THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'status_changed', NEW.updated_at, order_event_actor(), jsonb_build_object('from', OLD.status, 'to', NEW.status));
    END IF;
    IF NEW.fulfilment_status IS DISTINCT FROM OLD.fulfilment_status THEN
        INSERT INTO order_events (order_id, type, at, actor, data)
        VALUES (NEW.id, 'fulfilment_changed', NEW.updated_at, order_event_actor(),
                jsonb_build_object('from', OLD.fulfilment_status, 'to', NEW.fulfilment_status));
    END IF;
    RETURN NEW;
END
$$;
