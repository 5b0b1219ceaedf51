-- No answer is cached any more between requests (docs/decisions/0012-no-answer-cache.md), so
-- nothing listens to `data_changed`: the triggers of migrations 0006, 0010 and 0011 that sent
-- it on every write to the lists' tables, and on ending a session, go with their function.
-- The change events of the live updates are a separate channel (`events`), sent by the
-- services themselves, and stay.
DO $$
DECLARE
  cached_table text;
BEGIN
  FOREACH cached_table IN ARRAY ARRAY['tenants', 'users', 'roles', 'permissions',
      'role_permissions', 'projects', 'project_people', 'sessions', 'clients'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', cached_table || '_data_changed', cached_table);
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', cached_table || '_data_truncated', cached_table);
  END LOOP;
END $$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS notify_data_changed();
