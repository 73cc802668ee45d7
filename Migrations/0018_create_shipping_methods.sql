-- once: created by scenegen from Specs/ShippingMethod.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- ShippingMethod: A way the shop ships orders, such as a carrier's standard delivery.
CREATE TABLE shipping_methods (
    id uuid PRIMARY KEY,
    name text NOT NULL,
    carrier text NOT NULL,
    free_over_amount bigint,
    free_over_currency text,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT shipping_methods_name_check CHECK (char_length(name) BETWEEN 1 AND 100),
    CONSTRAINT shipping_methods_carrier_check CHECK (char_length(carrier) BETWEEN 1 AND 100),
    CONSTRAINT shipping_methods_free_over_amount_check CHECK (free_over_amount BETWEEN 1 AND 100000000000),
    CONSTRAINT shipping_methods_free_over_currency_check CHECK (free_over_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT shipping_methods_free_over_complete_check CHECK ((free_over_amount IS NULL) = (free_over_currency IS NULL))
);

CREATE INDEX shipping_methods_list_idx ON shipping_methods (created_at DESC, id DESC);
