-- The staff's queue of returns (GET /v1/admin/returns), newest first, by status or not.
CREATE INDEX returns_created_at_idx ON returns (created_at DESC, id DESC);
CREATE INDEX returns_status_created_at_idx ON returns (status, created_at DESC, id DESC);
