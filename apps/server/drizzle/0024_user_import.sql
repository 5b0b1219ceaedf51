-- Importing users from CSV: a job per uploaded file and its staged rows (see
-- db/schema/user-import.ts). Rows go with their job, jobs with their tenant.
CREATE TABLE IF NOT EXISTS "user_imports" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "tenant_id" uuid NOT NULL REFERENCES "tenants"("id") ON DELETE cascade,
  "created_by" uuid REFERENCES "users"("id") ON DELETE set null,
  "state" text DEFAULT 'receiving' NOT NULL,
  "columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "mapping" jsonb,
  "send_invitations" boolean DEFAULT false NOT NULL,
  "row_count" integer DEFAULT 0 NOT NULL,
  "valid_count" integer DEFAULT 0 NOT NULL,
  "error_count" integer DEFAULT 0 NOT NULL,
  "existing_count" integer DEFAULT 0 NOT NULL,
  "created_count" integer DEFAULT 0 NOT NULL,
  "skipped_count" integer DEFAULT 0 NOT NULL,
  "failed_count" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_imports_tenant_idx" ON "user_imports" USING btree ("tenant_id");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "user_import_rows" (
  "import_id" uuid NOT NULL REFERENCES "user_imports"("id") ON DELETE cascade,
  "line" integer NOT NULL,
  "cells" text[] NOT NULL,
  "first_name" text,
  "last_name" text,
  "email" text,
  "role_name" text,
  "role_id" uuid,
  "status" text,
  "problems" jsonb,
  "existing" boolean DEFAULT false NOT NULL,
  "outcome" text,
  "user_id" uuid,
  CONSTRAINT "user_import_rows_import_id_line_pk" PRIMARY KEY ("import_id", "line")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_import_rows_email_idx" ON "user_import_rows" USING btree ("import_id", "email");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_import_rows_pending_idx" ON "user_import_rows" USING btree ("import_id", "line")
  WHERE "user_import_rows"."outcome" is null;
