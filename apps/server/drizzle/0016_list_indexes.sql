-- Projects, the audit log, roles, permissions and applications: every sort of each list, in
-- both directions (an index is read backwards as well), for the tenant and for each filter,
-- has an index in that order, so no page sorts the tenant's rows and a deep page skips index
-- entries rather than rows.
--
-- Projects keep their owner's name on the row (kept by the triggers below), so sorting by owner
-- is an index too; their search looks in one lower-cased column of name and number.
ALTER TABLE "projects" ADD COLUMN "owner_name" text;
--> statement-breakpoint
UPDATE "projects" p SET "owner_name" = u."first_name" || ' ' || u."last_name"
  FROM "users" u WHERE u."id" = p."owner_id" AND u."tenant_id" = p."tenant_id";
--> statement-breakpoint
CREATE FUNCTION projects_owner_name() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  NEW.owner_name := (SELECT first_name || ' ' || last_name FROM users
    WHERE id = NEW.owner_id AND tenant_id = NEW.tenant_id);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_owner_name BEFORE INSERT OR UPDATE OF owner_id ON projects
  FOR EACH ROW EXECUTE FUNCTION projects_owner_name();
--> statement-breakpoint
CREATE FUNCTION users_rename_owned_projects() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  UPDATE projects SET owner_name = NEW.first_name || ' ' || NEW.last_name
    WHERE owner_id = NEW.id AND tenant_id = NEW.tenant_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_rename_owned_projects AFTER UPDATE OF first_name, last_name ON users
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name
    OR OLD.last_name IS DISTINCT FROM NEW.last_name)
  EXECUTE FUNCTION users_rename_owned_projects();
--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "search" text
  GENERATED ALWAYS AS (lower("name" || E'\n' || "project_number")) STORED;
--> statement-breakpoint
DROP INDEX "projects_name_trgm_idx";
--> statement-breakpoint
CREATE INDEX "projects_search_trgm_idx" ON "projects" USING gin ("search" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "projects_tenant_number_idx" ON "projects" ("tenant_id", "project_number", "id");
--> statement-breakpoint
CREATE INDEX "projects_tenant_budget_idx" ON "projects" ("tenant_id", "budget", "id");
--> statement-breakpoint
CREATE INDEX "projects_tenant_country_idx" ON "projects" ("tenant_id", "country", "name", "id");
--> statement-breakpoint
CREATE INDEX "projects_tenant_owner_name_idx" ON "projects" ("tenant_id", "owner_name", "name", "id");
--> statement-breakpoint
CREATE INDEX "projects_tenant_created_idx" ON "projects" ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_country_number_idx" ON "projects" ("tenant_id", "country", "project_number", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_country_budget_idx" ON "projects" ("tenant_id", "country", "budget", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_country_owner_name_idx" ON "projects" ("tenant_id", "country", "owner_name", "name", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_country_created_idx" ON "projects" ("tenant_id", "country", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_owner_name_idx" ON "projects" ("tenant_id", "owner_id", "name", "id", "country");
--> statement-breakpoint
CREATE INDEX "projects_by_owner_number_idx" ON "projects" ("tenant_id", "owner_id", "project_number", "id", "country");
--> statement-breakpoint
CREATE INDEX "projects_by_owner_budget_idx" ON "projects" ("tenant_id", "owner_id", "budget", "id", "country");
--> statement-breakpoint
CREATE INDEX "projects_by_owner_country_idx" ON "projects" ("tenant_id", "owner_id", "country", "name", "id");
--> statement-breakpoint
CREATE INDEX "projects_by_owner_created_idx" ON "projects" ("tenant_id", "owner_id", "created_at", "id", "country");
--> statement-breakpoint
-- Projects per tenant (owner and country '*'), per owner and per country, kept exact by
-- statement-level triggers, so a list's total is one row rather than a count.
CREATE TABLE "project_counts" (
	"tenant_id" uuid NOT NULL,
	"owner" text NOT NULL,
	"country" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "project_counts_pk" PRIMARY KEY("tenant_id","owner","country")
);
--> statement-breakpoint
ALTER TABLE "project_counts" ADD CONSTRAINT "project_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE FUNCTION project_count_keys(owner_id uuid, country text)
  RETURNS TABLE (owner text, country text) LANGUAGE sql IMMUTABLE AS $$
  SELECT k.owner, k.country FROM (VALUES ('*', '*'), (owner_id::text, '*'), ('*', country)) k (owner, country)
  WHERE k.owner IS NOT NULL AND k.country IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION projects_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO project_counts AS c (tenant_id, owner, country, n)
  SELECT r.tenant_id, k.owner, k.country, count(*)
  FROM new_rows r, project_count_keys(r.owner_id, r.country) k
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, owner, country) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION projects_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  UPDATE project_counts c SET n = c.n - d.n
  FROM (SELECT r.tenant_id, k.owner, k.country, count(*) AS n
    FROM old_rows r, project_count_keys(r.owner_id, r.country) k
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d
  WHERE (c.tenant_id, c.owner, c.country) = (d.tenant_id, d.owner, d.country);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION projects_count_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO project_counts AS c (tenant_id, owner, country, n)
  SELECT tenant_id, owner, country, sum(delta) FROM (
    SELECT r.tenant_id, k.owner, k.country, 1 AS delta
    FROM new_rows r, project_count_keys(r.owner_id, r.country) k
    UNION ALL
    SELECT r.tenant_id, k.owner, k.country, -1
    FROM old_rows r, project_count_keys(r.owner_id, r.country) k) d
  GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, owner, country) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER projects_count_insert AFTER INSERT ON projects REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION projects_count_insert();
--> statement-breakpoint
CREATE TRIGGER projects_count_delete AFTER DELETE ON projects REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION projects_count_delete();
--> statement-breakpoint
CREATE TRIGGER projects_count_update AFTER UPDATE ON projects REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION projects_count_update();
--> statement-breakpoint
INSERT INTO project_counts (tenant_id, owner, country, n)
  SELECT r.tenant_id, k.owner, k.country, count(*)
  FROM projects r, project_count_keys(r.owner_id, r.country) k GROUP BY 1, 2, 3;
--> statement-breakpoint
-- The audit log: entity, action and entity id searched in one lower-cased column; sorts by
-- entity or action go on by time.
ALTER TABLE "audit_log" ADD COLUMN "search" text
  GENERATED ALWAYS AS (lower("entity" || E'\n' || "action" || E'\n' || "entity_id")) STORED;
--> statement-breakpoint
CREATE INDEX "audit_log_search_trgm_idx" ON "audit_log" USING gin ("search" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "audit_log_tenant_entity_idx" ON "audit_log" ("tenant_id", "entity", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_tenant_action_idx" ON "audit_log" ("tenant_id", "action", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_entity_action_idx" ON "audit_log" ("tenant_id", "entity", "action", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_action_entity_idx" ON "audit_log" ("tenant_id", "action", "entity", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" ("tenant_id", "actor_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_actor_entity_idx" ON "audit_log" ("tenant_id", "actor_id", "entity", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_actor_action_idx" ON "audit_log" ("tenant_id", "actor_id", "action", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_actor_entity_action_idx" ON "audit_log" ("tenant_id", "actor_id", "entity", "action", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_actor_action_entity_idx" ON "audit_log" ("tenant_id", "actor_id", "action", "entity", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_entity_id_idx" ON "audit_log" ("tenant_id", "entity_id", "created_at", "id");
--> statement-breakpoint
-- Roles and permissions sort by name along their unique (tenant, lower(name)) keys, which now
-- carry the name and the id, so a deep page is found in the index alone (an index on an
-- expression serves an index-only scan only when the columns it is computed from are in it).
DROP INDEX "roles_tenant_name_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "roles_tenant_name_key" ON "roles" ("tenant_id", lower("name")) INCLUDE ("name", "id");
--> statement-breakpoint
CREATE INDEX "roles_tenant_status_idx" ON "roles" ("tenant_id", "status", lower("name")) INCLUDE ("name", "id");
--> statement-breakpoint
CREATE INDEX "roles_tenant_created_idx" ON "roles" ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "roles_status_created_idx" ON "roles" ("tenant_id", "status", "created_at", "id");
--> statement-breakpoint
DROP INDEX "permissions_tenant_name_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "permissions_tenant_name_key" ON "permissions" ("tenant_id", lower("name")) INCLUDE ("name", "id");
--> statement-breakpoint
CREATE INDEX "permissions_tenant_created_idx" ON "permissions" ("tenant_id", "created_at", "id");
--> statement-breakpoint
-- Applications sort by client ID along their unique (tenant, client_id) key, now carrying the
-- id as well.
ALTER TABLE "clients" DROP CONSTRAINT "clients_tenant_id_client_id_key";
--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_tenant_id_client_id_key" UNIQUE ("tenant_id", "client_id") INCLUDE ("id");
--> statement-breakpoint
CREATE INDEX "clients_tenant_type_idx" ON "clients" ("tenant_id", "type", "name", "id");
--> statement-breakpoint
CREATE INDEX "clients_tenant_created_idx" ON "clients" ("tenant_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "clients_type_client_id_idx" ON "clients" ("tenant_id", "type", "client_id", "id");
--> statement-breakpoint
CREATE INDEX "clients_type_created_idx" ON "clients" ("tenant_id", "type", "created_at", "id");
