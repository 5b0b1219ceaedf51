-- The change notices of migration 0006 now name the tenant whose data changed, so each
-- process forgets only that tenant's cached answers (apps/server/src/db/data-version.ts): how
-- fast one tenant is answered no longer tells whether another one has been busy. Row
-- triggers, as the tenant is a row's; PostgreSQL folds equal notices of one transaction into
-- one. TRUNCATE has no rows: its notice is empty and counts for every tenant.
CREATE OR REPLACE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('data_changed', '');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'tenants' THEN
    PERFORM pg_notify('data_changed', changed.id::text);
  ELSE
    PERFORM pg_notify('data_changed', changed.tenant_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  cached_table text;
BEGIN
  FOREACH cached_table IN ARRAY ARRAY['tenants', 'users', 'roles', 'permissions',
      'role_permissions', 'projects', 'project_people'] LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', cached_table || '_data_changed', cached_table);
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
      'FOR EACH ROW EXECUTE FUNCTION notify_data_changed()',
      cached_table || '_data_changed', cached_table);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed()',
      cached_table || '_data_truncated', cached_table);
  END LOOP;
END $$;
--> statement-breakpoint
-- Sessions only when one ends: new sessions and refreshes change no cached answer.
DROP TRIGGER sessions_data_changed ON sessions;
--> statement-breakpoint
CREATE TRIGGER sessions_data_changed AFTER UPDATE OF revoked_at OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_data_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
