-- Accounts: customers and their sessions. Emails are unique case-insensitively; a session
-- token is stored only as its SHA-256 hash, so a database leak does not leak live tokens.
CREATE TABLE customers (
    id uuid PRIMARY KEY,
    email text NOT NULL,
    name text NOT NULL,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT customers_email_format CHECK (char_length(email) BETWEEN 3 AND 254 AND email LIKE '%_@_%'),
    CONSTRAINT customers_name_length CHECK (char_length(btrim(name)) BETWEEN 1 AND 100)
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));

CREATE TABLE sessions (
    token_hash bytea PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    CONSTRAINT sessions_token_hash_length CHECK (octet_length(token_hash) = 32)
);
CREATE INDEX sessions_customer_id_idx ON sessions (customer_id);
