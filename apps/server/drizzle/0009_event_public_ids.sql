-- A change event's id as clients see it (SSE id, Last-Event-ID): random per event, so a
-- tenant's stream no longer shows a sequence that moves with every other tenant's changes.
ALTER TABLE "events" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "events_tenant_public_id_key" ON "events" USING btree ("tenant_id","public_id");