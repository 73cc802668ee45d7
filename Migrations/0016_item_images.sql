-- Product images (issue 15): an item's images, in order, each with its alt text and, when it
-- shows one variant, that variant. The file lives at the media API under `filename`; its URL is
-- the service's MEDIA_PUBLIC_URL and that name.
CREATE TABLE item_images (
    id uuid PRIMARY KEY,
    item_id uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    variant_id uuid REFERENCES item_variants (id) ON DELETE SET NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    size integer NOT NULL,
    alt text NOT NULL DEFAULT '',
    position integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT item_images_filename_format CHECK (filename ~ '^[A-Za-z0-9._-]{1,255}$'),
    CONSTRAINT item_images_alt_length CHECK (char_length(alt) <= 500),
    CONSTRAINT item_images_size_range CHECK (size BETWEEN 1 AND 10485760)
);
CREATE INDEX item_images_item_id_position_idx ON item_images (item_id, position, id);
