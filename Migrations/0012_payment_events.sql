-- The payment provider's events (webhooks), each recorded once by its id: a redelivered event is
-- acknowledged and ignored. `handled_at` stays null until the event was acted on.
CREATE TABLE payment_events (
    id text PRIMARY KEY,
    type text NOT NULL,
    payment_intent_id text,
    received_at timestamptz NOT NULL,
    handled_at timestamptz,
    CONSTRAINT payment_events_id_length CHECK (char_length(id) BETWEEN 1 AND 255),
    CONSTRAINT payment_events_type_length CHECK (char_length(type) BETWEEN 1 AND 255)
);
