/** One measured server: its own database, process, super administrator's token and CPU count. */
import pg from 'pg';
import type { Cleanups } from '../lib/cleanups';
import { freshDatabase } from '../lib/database';
import { BOOTSTRAP_ADMIN_PASSWORD, passwordGrant, startServer } from '../lib/server';
import type { Measured } from '../lib/cpu';
import { addTenants } from './seed';

export interface Side {
  label: string;
  url: string;
  token: string;
  cpu: Measured;
  /** Two connections of its own to its database, for seeding and EXPLAIN. */
  pool: pg.Pool;
  /** How many tenants its list holds now. */
  total: number;
}

/** A fresh PostgreSQL database and the built server on it, holding `tenants` tenants. */
export async function startSide(label: string, tenants: number, cleanups: Cleanups) {
  const database = await freshDatabase('postgres', { prefix: 'bench_tenants' });
  cleanups.add(database.drop);
  const server = await startServer({ env: database.env, cleanups, name: `the ${label} server` });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  cleanups.add(() => pool.end());
  const { access_token: token } = await passwordGrant(server.url, 'master', {
    email: 'admin@example.com',
    password: BOOTSTRAP_ADMIN_PASSWORD,
  });
  await addTenants(pool, 1, tenants);
  const side: Side = {
    label,
    url: server.url,
    token,
    cpu: { serverPids: [server.child.pid!], databaseName: database.name! },
    pool,
    total: tenants,
  };
  return side;
}

/** Grows a side's list to `tenants` tenants (SQL, then VACUUM ANALYZE). */
export async function grow(side: Side, tenants: number) {
  await addTenants(side.pool, side.total + 1, tenants);
  side.total = tenants;
}
