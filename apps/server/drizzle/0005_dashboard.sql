CREATE TABLE "sign_ins" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "sign_ins_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_tenant_invited_idx" ON "users" USING btree ("tenant_id","status") WHERE "users"."password_hash" is null;--> statement-breakpoint
CREATE INDEX "projects_tenant_figures_idx" ON "projects" USING btree ("tenant_id","country","owner_id","budget");--> statement-breakpoint
CREATE FUNCTION sessions_count_sign_in() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  INSERT INTO sign_ins AS s (tenant_id, day, count)
  VALUES (NEW.tenant_id, (NEW.created_at AT TIME ZONE 'UTC')::date, 1)
  ON CONFLICT (tenant_id, day) DO UPDATE SET count = s.count + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_count_sign_in AFTER INSERT ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_count_sign_in();
--> statement-breakpoint
INSERT INTO sign_ins (tenant_id, day, count)
  SELECT tenant_id, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM sessions GROUP BY 1, 2;
--> statement-breakpoint
-- Tenants older than the onboarding are in use already: they count as set up.
UPDATE tenants SET onboarding = jsonb_build_object('step', 'complete', 'completedAt',
  to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  WHERE NOT is_master AND onboarding IS NULL;
