-- Every committed write to the data that cached answers are made of (the five lists, and the
-- API's view of a caller: user, role, permissions, tenant, session revocation) notifies
-- `data_changed`, whichever process or path made it. Each process listens and forgets its
-- cached answers (apps/server/src/db/data-version.ts). Statement triggers: one notice per
-- statement, and PostgreSQL folds equal notices of one transaction into one.
CREATE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  PERFORM pg_notify('data_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  cached_table text;
BEGIN
  FOREACH cached_table IN ARRAY ARRAY['tenants', 'users', 'roles', 'permissions',
      'role_permissions', 'projects', 'project_people'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed()',
      cached_table || '_data_changed', cached_table);
  END LOOP;
END $$;
--> statement-breakpoint
-- Sessions only when one ends: new sessions and refreshes change no cached answer.
CREATE TRIGGER sessions_data_changed AFTER UPDATE OF revoked_at OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
