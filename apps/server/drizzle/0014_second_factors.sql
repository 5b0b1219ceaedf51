-- Second factors, the tenant's sign-in policy and what a session shows its user.

-- Second factor: optional, required for administrators, or required for everyone. The
-- password rules: a minimum length, the special-character rule, and a check against a list
-- of common passwords and the user's own e-mail and name.
ALTER TABLE "tenants" ADD COLUMN "mfa_policy" text DEFAULT 'optional' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_mfa_policy_check" CHECK ("mfa_policy" in ('optional', 'admins', 'everyone'));--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "password_min_length" integer DEFAULT 8 NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD CONSTRAINT "tenants_password_min_length_check" CHECK ("password_min_length" between 8 and 128);--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "password_require_special" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "password_refuse_common" boolean DEFAULT true NOT NULL;--> statement-breakpoint

-- A mail when a sign-in comes from a browser the user has not signed in from before.
ALTER TABLE "users" ADD COLUMN "notify_new_browser" boolean DEFAULT true NOT NULL;--> statement-breakpoint

-- Where a session was opened: shown to its user and to administrators.
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ip_address" text;--> statement-breakpoint
-- The browser that opened it (a random id kept in a cookie, hashed here): a sign-in from a
-- browser none of the user's sessions came from is told to the user.
ALTER TABLE "sessions" ADD COLUMN "browser_hash" text;--> statement-breakpoint
CREATE INDEX "sessions_user_browser_idx" ON "sessions" ("user_id", "browser_hash") WHERE "browser_hash" is not null;--> statement-breakpoint

-- One authenticator-app secret per user, encrypted with MFA_ENCRYPTION_KEY. Unconfirmed until
-- the first code; last_step is the last time step accepted, so no code works twice.
CREATE TABLE "totp_secrets" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"secret_encrypted" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint

-- Ten single-use codes per user, SHA-256 only (each has 80 random bits).
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_hash_key" ON "recovery_codes" ("user_id", "code_hash");--> statement-breakpoint

-- WebAuthn credentials (passkeys); the credential id is unique per tenant's relying party.
CREATE TABLE "passkeys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_tenant_credential_key" ON "passkeys" ("tenant_id", "credential_id");--> statement-breakpoint
CREATE INDEX "passkeys_user_idx" ON "passkeys" ("user_id");--> statement-breakpoint

-- WebAuthn challenges and sign-ins waiting for their second step, single use and short-lived:
-- keyed by what they belong to (an interaction of the hosted sign-in, or a user's enrolment).
CREATE TABLE "sign_in_steps" (
	"key" text PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
	"user_id" uuid REFERENCES "users"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint

-- Changing the tenant's sign-in policy needs its own permission, held by the built-in Admin
-- role (as 0011 added the clients' permissions, a same-named custom one becomes it).
INSERT INTO permissions (tenant_id, name, is_system)
  SELECT tenants.id, 'tenant:write', true FROM tenants WHERE NOT tenants.is_master
  ON CONFLICT (tenant_id, lower(name))
  DO UPDATE SET name = excluded.name, is_system = true, updated_at = now();
--> statement-breakpoint
INSERT INTO role_permissions (tenant_id, role_id, permission_id)
  SELECT roles.tenant_id, roles.id, permissions.id
  FROM roles
  JOIN permissions ON permissions.tenant_id = roles.tenant_id AND permissions.name = 'tenant:write'
  WHERE roles.is_system AND roles.name = 'Admin'
  ON CONFLICT DO NOTHING;
