-- A payment event finds its order by the order's PaymentIntent (PostgresOrderStore+Action): without
-- an index every webhook read the whole orders table.
CREATE INDEX orders_payment_intent_id_idx ON orders (payment_intent_id) WHERE payment_intent_id IS NOT NULL;

-- The pass over events whose handling failed (PaymentWebhookUseCase.handleLeftOverEvents) reads only
-- those, newest first.
CREATE INDEX payment_events_unhandled_idx ON payment_events (received_at) WHERE handled_at IS NULL;
