-- once: created by scenegen from Specs/Address.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- Address: The places a customer has orders shipped to.
CREATE TABLE addresses (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    recipient text NOT NULL,
    phone text NOT NULL,
    postal_code text NOT NULL,
    country text NOT NULL,
    region text,
    city text NOT NULL,
    line1 text NOT NULL,
    line2 text,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT addresses_recipient_check CHECK (char_length(recipient) BETWEEN 1 AND 100),
    CONSTRAINT addresses_phone_check CHECK (char_length(phone) BETWEEN 1 AND 20),
    CONSTRAINT addresses_postal_code_check CHECK (char_length(postal_code) BETWEEN 1 AND 10),
    CONSTRAINT addresses_country_check CHECK (char_length(country) BETWEEN 2 AND 2),
    CONSTRAINT addresses_region_check CHECK (char_length(region) <= 50),
    CONSTRAINT addresses_city_check CHECK (char_length(city) BETWEEN 1 AND 100),
    CONSTRAINT addresses_line1_check CHECK (char_length(line1) BETWEEN 1 AND 200),
    CONSTRAINT addresses_line2_check CHECK (char_length(line2) <= 200)
);

CREATE INDEX addresses_customer_id_idx ON addresses (customer_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX addresses_is_default_key ON addresses (customer_id) WHERE is_default;
