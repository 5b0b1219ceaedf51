import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/migrate';

/*
 * Migration 0011 fills in what provisioning does for new tenants: on a fresh database there is
 * no tenant yet, so only a database that already holds tenants shows that part working. Run on
 * PGlite with the SQL files themselves (both engines run the same files).
 */

const MASTER = '00000000-0000-4000-8000-000000000001';
const ACME = '00000000-0000-4000-8000-000000000002';
const ADMIN = '00000000-0000-4000-8000-0000000000a1';
const MEMBER = '00000000-0000-4000-8000-0000000000a2';

let db: PGlite;

async function apply(tag: string) {
  const text = readFileSync(join(migrationsFolder(), `${tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}

beforeAll(async () => {
  db = await PGlite.create('memory://', { extensions: { pg_trgm } });
  const journal = JSON.parse(
    readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { idx: number; tag: string }[] };
  for (const entry of journal.entries.filter((e) => e.idx < 11)) await apply(entry.tag);
  await db.exec(`
    insert into tenants (id, name, domain, is_master) values
      ('${MASTER}', 'master', null, true), ('${ACME}', 'acme', 'acme.test', false);
    insert into permissions (tenant_id, name, is_system) values
      ('${ACME}', 'users:read', true), ('${ACME}', 'Clients:Read', false);
    insert into roles (id, tenant_id, name, is_system) values
      ('${ADMIN}', '${ACME}', 'Admin', true), ('${MEMBER}', '${ACME}', 'Member', true);
  `);
  await apply('0011_clients');
});
afterAll(() => db?.close());

describe('migration 0011 on a database with tenants', () => {
  it('gives every tenant, the master realm too, the built-in react-client', async () => {
    const { rows } = await db.query(
      `select tenant_id, client_id, name, type, grant_types, id_token_signed_response_alg,
         built_in, redirect_uris, secret_hash from clients order by tenant_id`,
    );
    const builtIn = {
      client_id: 'react-client',
      name: 'Tenant Console',
      type: 'public',
      grant_types: ['authorization_code', 'refresh_token', 'password'],
      id_token_signed_response_alg: 'ES256',
      built_in: true,
      redirect_uris: [],
      secret_hash: null,
    };
    expect(rows).toEqual([
      { tenant_id: MASTER, ...builtIn },
      { tenant_id: ACME, ...builtIn },
    ]);
  });

  it('adds clients:read and clients:write as system permissions, taking over a same-named one', async () => {
    const { rows } = await db.query<{ tenant_id: string; name: string; is_system: boolean }>(
      `select tenant_id, name, is_system from permissions where name like 'clients:%' order by name`,
    );
    expect(rows).toEqual([
      { tenant_id: ACME, name: 'clients:read', is_system: true },
      { tenant_id: ACME, name: 'clients:write', is_system: true },
    ]);
  });

  it('grants them to the Admin role alone', async () => {
    const { rows } = await db.query<{ role_id: string; name: string }>(
      `select role_id, permissions.name from role_permissions
         join permissions on permissions.id = permission_id order by permissions.name`,
    );
    expect(rows).toEqual([
      { role_id: ADMIN, name: 'clients:read' },
      { role_id: ADMIN, name: 'clients:write' },
    ]);
  });
});

describe('migration 0025 on a database with applications', () => {
  beforeAll(async () => {
    await db.exec(`
      insert into clients (tenant_id, client_id, name, type, grant_types, redirect_uris)
        values ('${ACME}', 'shop', 'Shop', 'public', '{authorization_code}',
          '{https://shop.example/cb}');
    `);
    await apply('0025_client_trust');
  });

  it("makes every tenant's console client first-party with console API access, and no other", async () => {
    const { rows } = await db.query(
      `select tenant_id, client_id, first_party, console_api_access from clients
         order by tenant_id, client_id`,
    );
    expect(rows).toEqual([
      { tenant_id: MASTER, client_id: 'react-client', first_party: true, console_api_access: true },
      { tenant_id: ACME, client_id: 'react-client', first_party: true, console_api_access: true },
      { tenant_id: ACME, client_id: 'shop', first_party: false, console_api_access: false },
    ]);
  });
});
