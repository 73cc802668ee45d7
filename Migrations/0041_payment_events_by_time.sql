-- The purge forgets the provider's events by age (PaymentWebhookUseCase.eventRetention): without
-- an index each pass would read the whole table.
CREATE INDEX payment_events_received_at_idx ON payment_events (received_at);
