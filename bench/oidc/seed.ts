/**
 * The benchmark's tenants, users and applications: tenants and users straight into the
 * database as the other benchmarks seed them, applications through the API as a tenant's
 * administrator makes them (which answers a confidential client's secret once).
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../../apps/server/src/db/database';
import { hashPassword } from '../../apps/server/src/identity/passwords';
import { provisionTenant } from '../../apps/server/src/modules/tenants';
import { insertUser } from '../../apps/server/src/modules/users';
import { passwordGrant } from '../lib/server';
import {
  ADMIN_PASSWORD,
  PASSWORD,
  REDIRECT_URI,
  round,
  SERVICE_CLIENT,
  SPA_CLIENT,
  TENANTS,
  USERS_PER_TENANT,
} from './settings';

export interface BenchUser {
  realm: string;
  email: string;
}

export interface Seeded {
  realms: string[];
  /** Every tenant's users, interleaved (tenant 1's first, tenant 2's first, …). */
  users: BenchUser[];
  service: { realm: string; clientId: string; secret: string };
}

async function createClient(url: string, token: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/api/v1.0/clients/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) {
    throw new Error(`clients/create ${response.status}: ${await response.text()}`);
  }
  return ((await response.json()) as { data: { clientSecret?: string } }).data;
}

export async function seed(url: string, databaseUrl: string): Promise<Seeded> {
  const started = performance.now();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const db = drizzle(pool, { casing: 'snake_case' }) as unknown as Database;
  // One hash for every user: the salt makes no difference to what a sign-in costs, and
  // hashing 600 passwords would take longer than the runs.
  const passwordHash = await hashPassword(PASSWORD);
  const realms: string[] = [];
  const perTenant: BenchUser[][] = [];
  let service: Seeded['service'] | undefined;
  try {
    for (let t = 1; t <= TENANTS; t += 1) {
      const realm = `oidc${t}`;
      const domain = `${realm}.example.test`;
      const admin = { email: `admin@${domain}`, password: ADMIN_PASSWORD };
      const tenant = await db.transaction(async (tx) => {
        const provisioned = await provisionTenant(tx, { name: realm, domain });
        await insertUser(tx, {
          tenantId: provisioned.tenantId,
          email: admin.email,
          firstName: 'Ada',
          lastName: 'Admin',
          roleId: provisioned.adminRoleId,
          password: ADMIN_PASSWORD,
        });
        return provisioned;
      });
      await pool.query(
        `insert into users (tenant_id, email, first_name, last_name, role_id, status, password_hash)
         select $1, 'user' || g || '@' || $2::text, 'User', 'No. ' || g, $3, 'active', $4
         from generate_series(1, $5::int) g`,
        [tenant.tenantId, domain, tenant.memberRoleId, passwordHash, USERS_PER_TENANT],
      );
      realms.push(realm);
      perTenant.push(
        Array.from({ length: USERS_PER_TENANT }, (_, i) => ({
          realm,
          email: `user${i + 1}@${domain}`,
        })),
      );

      const { access_token: token } = await passwordGrant(url, realm, admin);
      await createClient(url, token, {
        clientId: SPA_CLIENT,
        name: 'Benchmark single-page application',
        type: 'public',
        redirectUris: [REDIRECT_URI],
        grantTypes: ['authorization_code', 'refresh_token'],
      });
      if (t === 1) {
        const created = await createClient(url, token, {
          clientId: SERVICE_CLIENT,
          name: 'Benchmark service',
          type: 'confidential',
          grantTypes: ['client_credentials'],
          serviceRoleIds: [tenant.memberRoleId],
        });
        if (!created.clientSecret) throw new Error('the confidential client came without a secret');
        service = { realm, clientId: SERVICE_CLIENT, secret: created.clientSecret };
      }
    }
    await pool.query('vacuum analyze');
  } finally {
    await pool.end();
  }
  const users = Array.from({ length: USERS_PER_TENANT }, (_, i) =>
    perTenant.map((list) => list[i]!),
  ).flat();
  console.error(
    `  seeded ${TENANTS} tenants × ${USERS_PER_TENANT} users and their applications in ` +
      `${round((performance.now() - started) / 1000)} s`,
  );
  return { realms, users, service: service! };
}
