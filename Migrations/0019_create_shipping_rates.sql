-- once: created by scenegen from Specs/ShippingRate.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- ShippingRate: What a shipping method charges to a country, a region or postal codes.
-- Edited: a method's rates go with it, and a missing region or prefix counts as a value in the
-- uniqueness (NULLS NOT DISTINCT), so a place has one rate per method.
CREATE TABLE shipping_rates (
    id uuid PRIMARY KEY,
    shipping_method_id uuid NOT NULL REFERENCES shipping_methods (id) ON DELETE CASCADE,
    country text NOT NULL,
    region text,
    postal_code_prefix text,
    fee_amount bigint NOT NULL,
    fee_currency text NOT NULL,
    free_shipping_applies boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT shipping_rates_country_check CHECK (char_length(country) BETWEEN 2 AND 2),
    CONSTRAINT shipping_rates_region_check CHECK (char_length(region) <= 50),
    CONSTRAINT shipping_rates_postal_code_prefix_check CHECK (char_length(postal_code_prefix) BETWEEN 1 AND 10),
    CONSTRAINT shipping_rates_fee_amount_check CHECK (fee_amount BETWEEN 0 AND 100000000000),
    CONSTRAINT shipping_rates_fee_currency_check CHECK (fee_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT shipping_rates_postal_code_prefix_key UNIQUE NULLS NOT DISTINCT (shipping_method_id, country, region, postal_code_prefix)
);

CREATE INDEX shipping_rates_list_idx ON shipping_rates (created_at DESC, id DESC);
CREATE INDEX shipping_rates_shipping_method_id_idx ON shipping_rates (shipping_method_id, created_at DESC, id DESC);
