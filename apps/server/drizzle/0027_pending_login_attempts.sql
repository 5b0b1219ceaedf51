-- Attempts at a password or a code that are being checked are counted apart from confirmed
-- failures, so that right passwords arriving together are not taken for quick failures.
ALTER TABLE "login_failures" ADD COLUMN "pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "pending_until" timestamp with time zone;
