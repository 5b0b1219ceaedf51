-- The users list reads every page along an index, whatever its sort, filter or search
-- (apps/server/src/modules/users/page-queries.ts), and skips to a deep page by counts instead
-- of by reading the rows before it.
--
-- user_sort_counts: the tenant's users per stretch of each sort order, by role and status,
-- kept exact by statement triggers as user_counts is. A stretch is a bucket of the sort's key:
-- the first character of the e-mail, first or last name (the sort orders by that character,
-- then by the name, so each bucket is one range of its index under any collation), the month
-- of creation (UTC), the first hex digit of the id (the status and role sorts order by id
-- within a status or role). A page is found by adding up the stretches before it, then
-- reading inside one stretch, from whichever of its ends is nearer.
CREATE TABLE "user_sort_counts" (
	"tenant_id" uuid NOT NULL,
	"sort" text NOT NULL,
	"bucket" text NOT NULL,
	"role_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "user_sort_counts_pk" PRIMARY KEY("tenant_id","sort","bucket","role_id","status")
);
--> statement-breakpoint
ALTER TABLE "user_sort_counts" ADD CONSTRAINT "user_sort_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE FUNCTION user_sort_buckets(email text, first_name text, last_name text,
    created_at timestamptz, id uuid) RETURNS TABLE (sort text, bucket text)
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  VALUES ('email', left(email, 1)), ('first_name', left(first_name, 1)),
    ('last_name', left(last_name, 1)),
    ('created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM')),
    ('id', left(id::text, 1))
$$;
--> statement-breakpoint
CREATE FUNCTION users_sort_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO user_sort_counts AS c (tenant_id, sort, bucket, role_id, status, n)
  SELECT r.tenant_id, b.sort, b.bucket, r.role_id, r.status, count(*)
  FROM new_rows r, user_sort_buckets(r.email, r.first_name, r.last_name, r.created_at, r.id) b
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, sort, bucket, role_id, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_sort_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  UPDATE user_sort_counts c SET n = c.n - d.n
  FROM (SELECT r.tenant_id, b.sort, b.bucket, r.role_id, r.status, count(*) AS n
    FROM old_rows r, user_sort_buckets(r.email, r.first_name, r.last_name, r.created_at, r.id) b
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5) d
  WHERE (c.tenant_id, c.sort, c.bucket, c.role_id, c.status)
    = (d.tenant_id, d.sort, d.bucket, d.role_id, d.status);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_sort_count_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO user_sort_counts AS c (tenant_id, sort, bucket, role_id, status, n)
  SELECT tenant_id, sort, bucket, role_id, status, sum(delta) FROM (
    SELECT r.tenant_id, b.sort, b.bucket, r.role_id, r.status, 1 AS delta
      FROM new_rows r, user_sort_buckets(r.email, r.first_name, r.last_name, r.created_at, r.id) b
    UNION ALL
    SELECT r.tenant_id, b.sort, b.bucket, r.role_id, r.status, -1
      FROM old_rows r, user_sort_buckets(r.email, r.first_name, r.last_name, r.created_at, r.id) b) d
  GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, sort, bucket, role_id, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_sort_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_sort_count_insert();
--> statement-breakpoint
CREATE TRIGGER users_sort_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_sort_count_delete();
--> statement-breakpoint
CREATE TRIGGER users_sort_count_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_sort_count_update();
--> statement-breakpoint
INSERT INTO user_sort_counts
SELECT u.tenant_id, b.sort, b.bucket, u.role_id, u.status, count(*)
FROM users u, user_sort_buckets(u.email, u.first_name, u.last_name, u.created_at, u.id) b
GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
-- One index per sort, in its order: (tenant_id, first character, column, id) for e-mail, first
-- and last name, (tenant_id, created_at, id), (tenant_id, status, id) and (tenant_id, role_id,
-- id). Each also holds (INCLUDE) the columns a filter or a search tests, so a page is found in
-- the index alone, without visiting the table: a status filter, a role filter, and a search
-- whose matches are too many to sort, tested user by user along the sort's order.
DROP INDEX IF EXISTS "users_tenant_email_id_idx";
--> statement-breakpoint
CREATE INDEX "users_tenant_email_idx" ON "users" USING btree ("tenant_id",left("email", 1),"email","id")
  INCLUDE ("status","role_id","first_name","last_name");
--> statement-breakpoint
CREATE INDEX "users_tenant_first_name_idx" ON "users" USING btree ("tenant_id",left("first_name", 1),"first_name","id")
  INCLUDE ("status","role_id","last_name","email");
--> statement-breakpoint
CREATE INDEX "users_tenant_last_name_idx" ON "users" USING btree ("tenant_id",left("last_name", 1),"last_name","id")
  INCLUDE ("status","role_id","first_name","email");
--> statement-breakpoint
CREATE INDEX "users_tenant_created_at_idx" ON "users" USING btree ("tenant_id","created_at","id")
  INCLUDE ("status","role_id","first_name","last_name","email");
--> statement-breakpoint
CREATE INDEX "users_tenant_status_idx" ON "users" USING btree ("tenant_id","status","id")
  INCLUDE ("role_id","first_name","last_name","email");
--> statement-breakpoint
CREATE INDEX "users_tenant_role_idx" ON "users" USING btree ("tenant_id","role_id","id")
  INCLUDE ("status");
