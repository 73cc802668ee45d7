-- A deleted account keeps its row (orders name it) with deleted_at set, and its personal rows are
-- deleted in the same transaction (PostgresCustomerSettingStore.deleteAccount), which holds the
-- customer's row FOR UPDATE. A request authenticated a moment before could still insert one
-- after it: the foreign key finds the row. This trigger takes the row's key share, which waits
-- for the deletion and then rereads it, and refuses a customer deleted.
CREATE FUNCTION rows_of_live_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM customers WHERE id = NEW.customer_id AND deleted_at IS NULL FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'customer % is deleted', NEW.customer_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'customer_deleted';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER sessions_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON sessions
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER addresses_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON addresses
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER cart_lines_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON cart_lines
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER wishlist_entries_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON wishlist_entries
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER devices_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON devices
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER resumable_uploads_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON resumable_uploads
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
CREATE TRIGGER reviews_of_live_customers BEFORE INSERT OR UPDATE OF customer_id ON reviews
    FOR EACH ROW EXECUTE FUNCTION rows_of_live_customers();
