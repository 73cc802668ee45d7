-- Credentials carry a version that a password change increments; a session records the version
-- it was opened under and is valid only while that is still the customer's, so a sign-in that
-- checked the old password cannot outlive the change however the two interleave.
ALTER TABLE customers ADD COLUMN credentials_version integer NOT NULL DEFAULT 1;
ALTER TABLE sessions ADD COLUMN credentials_version integer NOT NULL DEFAULT 1;
-- Expired sessions are deleted periodically, by expiry.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Rate limits (PostgresRateLimiter): one row per limited key, the moment its token bucket is full
-- again. Unlogged: losing the counts in a crash only forgives some requests.
CREATE UNLOGGED TABLE rate_limits (
    key text PRIMARY KEY,
    refilled_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_refilled_at_idx ON rate_limits (refilled_at);
