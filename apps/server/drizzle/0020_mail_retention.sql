-- Retention of the mail outbox: when a queued message's link stops working (its body is
-- blanked then), and the indexes the retention job prunes along (finished mail by age, bodies
-- by link expiry; blanked rows leave the partial index).
ALTER TABLE "mail_outbox" ADD COLUMN IF NOT EXISTS "link_expires_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_outbox_status_created_idx" ON "mail_outbox" USING btree ("status","created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_outbox_link_expiry_idx" ON "mail_outbox" USING btree ("link_expires_at")
  WHERE "mail_outbox"."link_expires_at" is not null;
