-- Emails in Unicode normalization form C, as sign-up, sign-in and settings now keep them
-- (AccountRules.normalizedEmail): an address stored decomposed (`e` and a combining accent) would
-- no longer match the composed form a client sends. One whose composed form another account has
-- (stored so, or composing to it too) is left as it is: sign-in, which composes what it is sent,
-- reaches one of them, the spellings being one address that several accounts had taken.
WITH composed AS (
    SELECT id, normalize(email, NFC) AS email FROM customers WHERE email IS NOT NFC NORMALIZED
)
UPDATE customers c SET email = composed.email FROM composed
WHERE c.id = composed.id
  AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.id <> c.id AND lower(o.email) = lower(composed.email))
  AND NOT EXISTS (SELECT 1 FROM composed d WHERE d.id <> c.id AND lower(d.email) = lower(composed.email));
