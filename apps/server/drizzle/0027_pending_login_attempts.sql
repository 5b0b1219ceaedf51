-- Attempts at a password or a code that are being checked are counted apart from confirmed
-- failures, so that right passwords arriving together are not taken for quick failures.
ALTER TABLE "login_failures" ADD COLUMN "pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "pending_until" timestamp with time zone;--> statement-breakpoint
-- Client secrets are no longer locked out (a right one is always accepted, wrong ones are
-- throttled per address): the flag that spared right secrets a lockout lookup goes.
ALTER TABLE "clients" DROP COLUMN "secret_failures_recorded";
