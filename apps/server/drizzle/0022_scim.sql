-- SCIM provisioning. A user's ID in the identity system that provisions it (SCIM externalId):
-- set by the provisioning client, compared exactly (case-sensitive, as SCIM defines it) and
-- unique within the tenant when set, so a client's filter by it finds one user along the index.
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "external_id" text;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "users_tenant_external_id_key" ON "users" USING btree ("tenant_id","external_id")
  WHERE "users"."external_id" is not null;
--> statement-breakpoint
-- The tenant's choices for provisioned users: new users are invited by mail ('invite') or
-- made active without a mail ('activate'); a SCIM DELETE deactivates ('deactivate') or deletes.
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "scim_new_users" text DEFAULT 'invite' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN IF NOT EXISTS "scim_delete" text DEFAULT 'deactivate' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_scim_new_users_check"
  CHECK ("tenants"."scim_new_users" in ('invite', 'activate'));
--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_scim_delete_check"
  CHECK ("tenants"."scim_delete" in ('deactivate', 'delete'));
