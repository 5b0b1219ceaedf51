-- The OAuth 2.0 / OpenID Connect clients (applications) of each tenant, which the identity
-- provider reads, and the roles a client's own (client_credentials) tokens carry. A secret is
-- kept only as the base64url SHA-256 of its text; public clients have none.
CREATE TABLE "client_service_roles" (
	"client_row_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	CONSTRAINT "client_service_roles_client_row_id_role_id_pk" PRIMARY KEY("client_row_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"secret_hash" text,
	"redirect_uris" text[] DEFAULT '{}' NOT NULL,
	"post_logout_redirect_uris" text[] DEFAULT '{}' NOT NULL,
	"web_origins" text[] DEFAULT '{}' NOT NULL,
	"grant_types" text[] NOT NULL,
	"id_token_signed_response_alg" text DEFAULT 'RS256' NOT NULL,
	"built_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_tenant_id_client_id_key" UNIQUE("tenant_id","client_id"),
	CONSTRAINT "clients_type_check" CHECK ("clients"."type" in ('public', 'confidential')),
	CONSTRAINT "clients_id_token_signed_response_alg_check" CHECK ("clients"."id_token_signed_response_alg" in ('RS256', 'ES256')),
	CONSTRAINT "clients_grant_types_check" CHECK ("clients"."grant_types" <@ array['authorization_code', 'refresh_token', 'client_credentials', 'password']::text[])
);
--> statement-breakpoint
ALTER TABLE "client_service_roles" ADD CONSTRAINT "client_service_roles_client_row_id_clients_id_fk" FOREIGN KEY ("client_row_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "client_service_roles" ADD CONSTRAINT "client_service_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "client_service_roles_role_idx" ON "client_service_roles" USING btree ("role_id");
--> statement-breakpoint
CREATE INDEX "clients_tenant_name_idx" ON "clients" USING btree ("tenant_id","name","id");
--> statement-breakpoint
CREATE INDEX "clients_name_trgm_idx" ON "clients" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "clients_client_id_trgm_idx" ON "clients" USING gin ("client_id" gin_trgm_ops);
--> statement-breakpoint
-- Client lists are cached answers like the other entities' (migrations 0006 and 0010). The
-- service roles need no trigger of their own: they change only with their client's row, in
-- the same transaction, or when their role is deleted, which the roles trigger reports.
CREATE TRIGGER clients_data_changed AFTER INSERT OR UPDATE OR DELETE ON clients
  FOR EACH ROW EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
CREATE TRIGGER clients_data_truncated AFTER TRUNCATE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION notify_data_changed();
--> statement-breakpoint
-- Every tenant, the master realm included, signs in to the console through its built-in
-- client; the identity provider adds the console's own callback address at run time, so its
-- address lists start empty. New tenants get the same row from provisioning.
INSERT INTO clients (tenant_id, client_id, name, type, grant_types, id_token_signed_response_alg,
    built_in)
  SELECT id, 'react-client', 'Tenant Console', 'public',
    '{authorization_code,refresh_token,password}', 'ES256', true
  FROM tenants
  ON CONFLICT (tenant_id, client_id) DO NOTHING;
--> statement-breakpoint
-- The new system permissions, in every tenant that has system permissions (all but the master
-- realm), as provisioning creates them. A tenant may already have made a custom permission of
-- the same name (names are unique regardless of case): as the API checks permissions by name,
-- that name now opens the new routes anyway, so it becomes the system permission, spelt as
-- the system spells it, rather than a second one beside it.
INSERT INTO permissions (tenant_id, name, is_system)
  SELECT tenants.id, names.name, true
  FROM tenants CROSS JOIN (VALUES ('clients:read'), ('clients:write')) AS names (name)
  WHERE NOT tenants.is_master
  ON CONFLICT (tenant_id, lower(name))
  DO UPDATE SET name = excluded.name, is_system = true, updated_at = now();
--> statement-breakpoint
-- The built-in Admin role holds every system permission.
INSERT INTO role_permissions (tenant_id, role_id, permission_id)
  SELECT roles.tenant_id, roles.id, permissions.id
  FROM roles
  JOIN permissions ON permissions.tenant_id = roles.tenant_id
    AND permissions.name IN ('clients:read', 'clients:write')
  WHERE roles.is_system AND roles.name = 'Admin'
  ON CONFLICT DO NOTHING;
