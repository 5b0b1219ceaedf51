-- What the OpenID provider (oidc-provider) keeps between requests: authorization codes,
-- interactions, browser sessions, grants and the refresh tokens of the code flow. One row per
-- artifact, keyed by its kind and id and kept within its tenant: an artifact of realm A is
-- never found at realm B. Expired rows are ignored on read.
CREATE TABLE "oidc_payloads" (
	"model" text NOT NULL,
	"id" text NOT NULL,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE CASCADE,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oidc_payloads_pkey" PRIMARY KEY ("model", "id")
);
--> statement-breakpoint
CREATE INDEX "oidc_payloads_grant_idx" ON "oidc_payloads" ("grant_id") WHERE "grant_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads" ("uid") WHERE "uid" IS NOT NULL;
--> statement-breakpoint
-- A session of the code flow is the provider's grant: the grant's id finds it, and its
-- application is recorded for the sessions a user sees.
ALTER TABLE "sessions" ADD COLUMN "grant_id" text;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "client_id" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_grant_key" ON "sessions" ("grant_id") WHERE "grant_id" IS NOT NULL;
