-- The home feed's top-rated items are the first page of the catalog sorted by rating
-- (`GET /v1/items?sort=rating`): the same key (rating_key, the mean in millionths of a star,
-- 0015) and the same tie-break (the id, descending), answered by items_rating_key_id_idx read
-- backwards. The feed's own order and index (0006) ranked ties differently; the index goes.
DROP INDEX items_top_rated_idx;
