-- A MatrixOwnedTags tag may name an address of its owner's (the store refuses another customer's).
ALTER TABLE matrix_owned_tags ADD COLUMN address_id uuid REFERENCES addresses (id);
CREATE INDEX matrix_owned_tags_address_id_idx ON matrix_owned_tags (address_id);
