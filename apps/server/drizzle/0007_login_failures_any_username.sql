ALTER TABLE "login_failures" DROP CONSTRAINT "login_failures_user_id_users_id_fk";
