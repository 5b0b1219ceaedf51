-- What a user allowed an application that is not first-party (OpenID Connect Core §3.1.2.4:
-- the provider obtains the user's consent). One row a user and application, with the scopes
-- allowed so far: a request within them is not asked again, one beyond them is. Goes with its
-- tenant, user and application.
CREATE TABLE IF NOT EXISTS "application_consents" (
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "client_id" uuid NOT NULL REFERENCES "clients"("id") ON DELETE cascade,
  "scopes" text[] DEFAULT '{}' NOT NULL,
  "granted_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "application_consents_pkey" PRIMARY KEY ("user_id", "client_id")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "application_consents_tenant_user_idx" ON "application_consents" USING btree ("tenant_id", "user_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "application_consents_client_idx" ON "application_consents" USING btree ("client_id");
