-- Account deletion (issue 14; App Store guideline 5.1.1(v)). A deleted customer's row stays,
-- anonymized, for the orders the accounting period keeps: its email becomes a placeholder of its
-- id (so the email may sign up again as a new customer), its name and password go, and
-- `deleted_at` says when. Nothing signs in as it again.
ALTER TABLE customers ADD COLUMN deleted_at timestamptz;
