-- Whether wrong secrets of a client are on record (its lockout, in login_failures). Kept on
-- the client's row, which the identity provider caches and whose change notice reaches every
-- process: a client with none needs no lockout lookup when it presents its right secret, and
-- the first failure of a run tells every process to look again.
ALTER TABLE "clients" ADD COLUMN "secret_failures_recorded" boolean DEFAULT false NOT NULL;
