-- Emails in Unicode normalization form C, as sign-up and settings now keep them and sign-in looks
-- them up (AccountRules.normalizedEmail): an address stored decomposed (`e` and a combining
-- accent) is composed, so the composed form a client sends finds it. Where several stored
-- spellings compose to one address, the oldest account takes the composed form, unless another
-- account already has it; the others keep theirs, and sign-in, which first tries the form it
-- is sent exactly, still reaches each by its own spelling.
WITH composed AS (
    SELECT id, normalize(email, NFC) AS email,
           row_number() OVER (PARTITION BY lower(normalize(email, NFC)) ORDER BY created_at, id) AS rank
    FROM customers WHERE email IS NOT NFC NORMALIZED
)
UPDATE customers c SET email = composed.email FROM composed
WHERE c.id = composed.id AND composed.rank = 1
  AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.id <> c.id AND lower(o.email) = lower(composed.email));
