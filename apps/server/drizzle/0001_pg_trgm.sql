-- Trigram indexes make 'contains' search on names and e-mails fast (issue: list benchmark).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
