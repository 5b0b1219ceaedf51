-- Who an application's tokens are for. An application's access tokens reach the console API
-- only with console_api_access; first_party applications are the tenant's own and ask no
-- consent. Both are set only by someone who holds every permission a token could carry
-- (docs/identity-provider.md, "Which tokens the console API accepts"). The console's own
-- client is both, in every tenant, as provisioning now creates it.
ALTER TABLE "clients" ADD COLUMN IF NOT EXISTS "first_party" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN IF NOT EXISTS "console_api_access" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE clients SET first_party = true, console_api_access = true
  WHERE built_in AND client_id = 'react-client';
