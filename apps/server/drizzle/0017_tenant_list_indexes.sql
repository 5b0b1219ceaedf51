-- The super administrator's tenant list, at any number of tenants: each sort column (both
-- directions: an index is read backwards as well) has an index of the managed tenants in that
-- order, the id breaking ties as the list does; a search reads the trigram indexes of name and
-- domain. The master realm is found by an index too (and there is only ever one).
CREATE INDEX "tenants_list_name_idx" ON "tenants" (lower("name"), "id") WHERE NOT "is_master";
--> statement-breakpoint
CREATE INDEX "tenants_list_domain_idx" ON "tenants" ("domain", "id") WHERE NOT "is_master";
--> statement-breakpoint
CREATE INDEX "tenants_list_created_at_idx" ON "tenants" ("created_at", "id") WHERE NOT "is_master";
--> statement-breakpoint
CREATE INDEX "tenants_domain_trgm_idx" ON "tenants" USING gin ("domain" gin_trgm_ops);
--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_master_key" ON "tenants" ("is_master") WHERE "is_master";
--> statement-breakpoint
-- How many managed tenants there are, kept by trigger, so the list's total is read, not
-- counted. Spread over slots by connection: concurrent creations on different connections
-- never wait for one another's row; the total is the sum of the slots.
CREATE TABLE "tenant_counts" (
	"slot" smallint PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION tenants_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM tenant_counts;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows WHERE NOT is_master;
  ELSE
    SELECT -count(*) INTO delta FROM old_rows WHERE NOT is_master;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO tenant_counts AS c (slot, n) VALUES (pg_backend_pid() % 16, delta)
    ON CONFLICT (slot) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- No UPDATE trigger: a tenant never becomes the master realm, nor the master realm a tenant.
CREATE TRIGGER tenants_count_insert AFTER INSERT ON tenants REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tenants_count_change();
--> statement-breakpoint
CREATE TRIGGER tenants_count_delete AFTER DELETE ON tenants REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tenants_count_change();
--> statement-breakpoint
CREATE TRIGGER tenants_count_truncate AFTER TRUNCATE ON tenants
  FOR EACH STATEMENT EXECUTE FUNCTION tenants_count_change();
--> statement-breakpoint
INSERT INTO tenant_counts (slot, n) SELECT 0, count(*) FROM tenants WHERE NOT is_master;
