CREATE TABLE "user_counts" (
	"tenant_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "user_counts_tenant_id_role_id_status_pk" PRIMARY KEY("tenant_id","role_id","status")
);
--> statement-breakpoint
ALTER TABLE "user_counts" ADD CONSTRAINT "user_counts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION users_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO user_counts AS c (tenant_id, role_id, status, n)
  SELECT tenant_id, role_id, status, count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, role_id, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  UPDATE user_counts c SET n = c.n - d.n
  FROM (SELECT tenant_id, role_id, status, count(*) AS n FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3) d
  WHERE (c.tenant_id, c.role_id, c.status) = (d.tenant_id, d.role_id, d.status);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_count_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO user_counts AS c (tenant_id, role_id, status, n)
  SELECT tenant_id, role_id, status, sum(delta) FROM (
    SELECT tenant_id, role_id, status, 1 AS delta FROM new_rows
    UNION ALL SELECT tenant_id, role_id, status, -1 FROM old_rows) d
  GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (tenant_id, role_id, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_count_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_insert();
--> statement-breakpoint
CREATE TRIGGER users_count_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_delete();
--> statement-breakpoint
CREATE TRIGGER users_count_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_count_update();
--> statement-breakpoint
INSERT INTO user_counts SELECT tenant_id, role_id, status, count(*) FROM users GROUP BY 1, 2, 3;
