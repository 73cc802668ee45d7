-- once: created by scenegen from Specs/Wishlist.yml; yours from now on. An applied migration never
-- changes: add a new file for a later change.
-- Wishlist: Items a customer keeps for later.
CREATE TABLE wishlist_entries (
    id uuid PRIMARY KEY,
    customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    item_id uuid NOT NULL REFERENCES items (id),
    note text,
    priority integer NOT NULL DEFAULT 3,
    status text NOT NULL DEFAULT 'active',
    budget_amount bigint,
    budget_currency text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT wishlist_entries_note_check CHECK (char_length(note) <= 200),
    CONSTRAINT wishlist_entries_priority_check CHECK (priority BETWEEN 1 AND 5),
    CONSTRAINT wishlist_entries_status_check CHECK (status IN ('active', 'bought')),
    CONSTRAINT wishlist_entries_budget_amount_check CHECK (budget_amount >= 0),
    CONSTRAINT wishlist_entries_budget_currency_check CHECK (budget_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT wishlist_entries_budget_complete_check CHECK ((budget_amount IS NULL) = (budget_currency IS NULL))
);

CREATE INDEX wishlist_entries_customer_id_idx ON wishlist_entries (customer_id, created_at DESC, id DESC);
CREATE INDEX wishlist_entries_item_id_idx ON wishlist_entries (item_id);

-- A deleted account's rows are deleted with it (CustomerOwnedTables), and it takes no new
-- one: the trigger waits for a deletion under way, then refuses (Migrations/0035).
CREATE TRIGGER wishlist_entries_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON wishlist_entries
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
