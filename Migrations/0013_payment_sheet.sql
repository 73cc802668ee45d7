-- The payment sheet: a checkout without a payment method leaves the confirmation to the
-- customer's app, so an order may have none.
ALTER TABLE orders ALTER COLUMN payment_method DROP NOT NULL;
