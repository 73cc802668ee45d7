-- Where and how an order ships (issue 14), kept as it was at checkout so that no later change of
-- the address book or the shipping methods changes an order: {"address": {"recipient","phone",
-- "postal_code","country","region","city","line1","line2"}, "method_id","method_name","carrier"}.
-- NULL for an order that ships nothing (placed before shipping, or by a shop without methods).
ALTER TABLE orders ADD COLUMN shipping jsonb;
