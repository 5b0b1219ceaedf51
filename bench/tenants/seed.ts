/**
 * Tenants written with SQL, as many as the benchmark needs: the list reads only the tenants
 * table, so the rows are plain tenants (no roles or users), with names and domains that differ
 * in their letters and creation dates spread over years.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Tenant n's name: a word and eight hex digits (a tenant name is a realm name, [a-z0-9_-]). */
const WORDS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'stark',
  'wayne',
  'hooli',
  'vandelay',
  'wonka',
  'tyrell',
  'cyberdyne',
  'soylent',
  'massive',
  'oscorp',
  'aperture',
  'monarch',
];

/** Adds tenants number `from` to `to` (inclusive), then updates the planner's statistics. */
export async function addTenants(pool: pg.Pool, from: number, to: number): Promise<void> {
  await pool.query(
    `insert into tenants (name, domain, created_at, updated_at)
     select w.word || '-' || h.hex, h.hex || '.' || w.word || '.example.test', t.at, t.at
     from generate_series($1::int, $2::int) g,
       lateral (select substr(md5(g::text), 1, 8) as hex) h,
       lateral (select ($3::text[])[1 + g % array_length($3::text[], 1)] as word) w,
       lateral (select now() - g * interval '83 minutes' as at) t`,
    [from, to, WORDS],
  );
  // VACUUM too: what autovacuum does to a table after many inserts, and the visibility map
  // lets an index-only scan skip the table.
  await pool.query('vacuum analyze tenants');
}

/** A five-letter fragment of tenant n's name: a search that finds it (and rarely another). */
export const fragmentOf = (n: number) =>
  createHash('md5').update(String(n)).digest('hex').slice(1, 6);
