-- A webhook endpoint's owner: the user who created or last saved it. A delivery carries an
-- entity only while its owner may read that entity, so a subscriber cannot receive through a
-- webhook what the API would refuse to show them. The owner's deletion leaves the endpoint
-- without one: then only test events leave, until someone who may read saves it again.
ALTER TABLE "webhook_endpoints"
  ADD COLUMN IF NOT EXISTS "owner_id" uuid REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
-- Existing endpoints get the user who last created, changed or rotated them, as the audit
-- log says, when that user still exists (an earlier author does not stand in for them).
UPDATE "webhook_endpoints" AS e SET "owner_id" = latest."actor_id"
  FROM (
    SELECT DISTINCT ON (a."entity_id") a."entity_id", a."actor_id"
      FROM "audit_log" a
     WHERE a."entity" = 'webhooks' AND a."action" IN ('create', 'update')
     ORDER BY a."entity_id", a."created_at" DESC
  ) AS latest
 WHERE e."owner_id" IS NULL AND latest."entity_id" = e."id"::text
   AND EXISTS (SELECT FROM "users" u WHERE u."id" = latest."actor_id");
--> statement-breakpoint
-- Why a delivery was skipped: the read permission its event needed, which the owner lacked.
ALTER TABLE "webhook_deliveries" ADD COLUMN IF NOT EXISTS "skipped_for" text;
