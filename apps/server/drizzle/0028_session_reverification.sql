-- When the session last proved its user again (password, second factor or passkey) for the
-- account's security changes (docs/decisions/0018-recent-proof-for-account-security.md).
-- Null: not since its sign-in, which counts as a proof at the session's created_at.
ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "reverified_at" timestamp with time zone;
