-- A search sorted by role reads each role's users in id order and tests the search on each:
-- with the tested columns held in the index (like every other sort's index), that read never
-- visits the table, and the planner takes it in order instead of fetching and sorting a whole
-- role.
DROP INDEX IF EXISTS "users_tenant_role_idx";
--> statement-breakpoint
CREATE INDEX "users_tenant_role_idx" ON "users" USING btree ("tenant_id","role_id","id")
  INCLUDE ("status","first_name","last_name","email");
