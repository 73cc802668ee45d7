-- Resumable uploads (issue 17, draft-ietf-httpbis-resumable-upload). An upload's state and its
-- bytes live here, not in an instance's memory or disk, so a resumption that lands on another
-- instance behind the load balancer continues where the cut one stopped. Bytes are kept in
-- chunks of at most 256 KiB in the order they arrived; `received` moves only by a conditional
-- update (`WHERE received = <the offset the request started at>`), so two requests appending
-- at once never both land; a request's last, short piece is joined to the next one's, so tiny
-- requests cannot multiply rows. Rows expire (`expires_at`, RESUMABLE_UPLOAD_TTL_SECONDS after the
-- last byte) and the purge service removes them with their chunks.
CREATE TABLE resumable_uploads (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    -- The route the finished file goes to ("POST /v1/reviews/{id}/photos") and its path
    -- parameters, read again by whichever instance completes the upload.
    target text NOT NULL,
    parameters jsonb NOT NULL,
    max_size bigint NOT NULL CONSTRAINT resumable_uploads_max_size_check CHECK (max_size > 0),
    length bigint CONSTRAINT resumable_uploads_length_check CHECK (length BETWEEN 0 AND max_size),
    received bigint NOT NULL DEFAULT 0 CONSTRAINT resumable_uploads_received_check CHECK (received BETWEEN 0 AND max_size),
    state text NOT NULL DEFAULT 'open' CONSTRAINT resumable_uploads_state_check CHECK (state IN ('open', 'completing', 'done')),
    -- While one instance hands the finished file on: no other does until the lease runs out,
    -- and what it records names its claim, so one whose lease ran out changes nothing.
    claim_id uuid,
    completing_until timestamptz,
    -- The answer the finished upload got, given again to a client that asks to complete it twice.
    answer_status integer,
    answer_content_type text,
    answer_body bytea,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX resumable_uploads_customer ON resumable_uploads (customer_id) WHERE state <> 'done';
CREATE INDEX resumable_uploads_expiry ON resumable_uploads (expires_at);

CREATE TABLE resumable_upload_chunks (
    upload_id uuid NOT NULL REFERENCES resumable_uploads (id) ON DELETE CASCADE,
    start_offset bigint NOT NULL,
    bytes bytea NOT NULL CONSTRAINT resumable_upload_chunks_size_check CHECK (length(bytes) BETWEEN 1 AND 262144),
    PRIMARY KEY (upload_id, start_offset)
);
