-- A customer wishes for an item once (Specs/Wishlist.yml's unique group): a second entry for the
-- same item answers 409 naming item_id. Entries added twice before keep the first one made.
DELETE FROM wishlist_entries w
USING wishlist_entries earlier
WHERE earlier.customer_id = w.customer_id AND earlier.item_id = w.item_id
  AND (earlier.created_at, earlier.id) < (w.created_at, w.id);

ALTER TABLE wishlist_entries ADD CONSTRAINT wishlist_entries_item_id_key UNIQUE (customer_id, item_id);
