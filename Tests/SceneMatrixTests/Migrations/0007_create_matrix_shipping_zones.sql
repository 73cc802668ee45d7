-- once: created by scenegen from Tests/SceneMatrixTests/Specs/MatrixZone.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- MatrixZone: Shipping zones and their fees, managed by staff.
CREATE TABLE matrix_shipping_zones (
    id uuid PRIMARY KEY,
    country text NOT NULL,
    name text NOT NULL,
    fee_amount bigint NOT NULL,
    fee_currency text NOT NULL,
    rank integer NOT NULL,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT matrix_shipping_zones_country_check CHECK (country IN ('JP', 'US', 'GB', 'DE', 'FR', 'CA', 'AU')),
    CONSTRAINT matrix_shipping_zones_name_check CHECK (char_length(name) BETWEEN 1 AND 100),
    CONSTRAINT matrix_shipping_zones_fee_amount_check CHECK (fee_amount BETWEEN 0 AND 100000000),
    CONSTRAINT matrix_shipping_zones_fee_currency_check CHECK (fee_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT matrix_shipping_zones_name_key UNIQUE (country, name)
);

CREATE INDEX matrix_shipping_zones_list_idx ON matrix_shipping_zones (created_at DESC, id DESC);
