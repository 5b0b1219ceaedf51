-- Every committed write to the data that cached answers are made of (the five lists, and the
-- API's view of a caller: user, role, permissions, tenant, session revocation) notifies
-- `data_changed`, whichever process or path made it. Each process listens and forgets its
-- cached answers (apps/server/src/http/data-version.ts). Statement triggers: one notice per
-- statement, and PostgreSQL folds equal notices of one transaction into one.
CREATE FUNCTION notify_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
  PERFORM pg_notify('data_changed', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tenants_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tenants
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER users_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER roles_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER permissions_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON permissions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER role_permissions_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER projects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON projects
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER project_people_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON project_people
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
-- Sessions only when one ends: new sessions and refreshes change no cached answer.
CREATE TRIGGER sessions_data_changed AFTER UPDATE OF revoked_at OR DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
