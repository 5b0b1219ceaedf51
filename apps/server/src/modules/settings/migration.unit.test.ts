import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/migrate';

/*
 * Migration 0014 gives tenants that already exist what provisioning gives new ones: the
 * system permission tenant:write, held by the Admin role, and the default security policy.
 * Only a database that already holds tenants shows it working (PGlite, the SQL files
 * themselves; both engines run the same files).
 */

const MASTER = '00000000-0000-4000-8000-000000000001';
const ACME = '00000000-0000-4000-8000-000000000002';
const GLOBEX = '00000000-0000-4000-8000-000000000003';
const ACME_ADMIN = '00000000-0000-4000-8000-0000000000a1';
const ACME_MEMBER = '00000000-0000-4000-8000-0000000000a2';
const GLOBEX_ADMIN = '00000000-0000-4000-8000-0000000000b1';
const SUPER_ADMIN = '00000000-0000-4000-8000-0000000000c1';

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
  for (const entry of journal.entries.filter((e) => e.idx < 14)) await apply(entry.tag);
  // Globex had made a custom permission of the same name, in another case.
  await db.exec(`
    insert into tenants (id, name, domain, is_master) values
      ('${MASTER}', 'master', null, true),
      ('${ACME}', 'acme', 'acme.test', false),
      ('${GLOBEX}', 'globex', 'globex.test', false);
    insert into permissions (tenant_id, name, is_system) values
      ('${ACME}', 'tenant:read', true), ('${GLOBEX}', 'Tenant:Write', false);
    insert into roles (id, tenant_id, name, is_system) values
      ('${SUPER_ADMIN}', '${MASTER}', 'superAdmin', true),
      ('${ACME_ADMIN}', '${ACME}', 'Admin', true),
      ('${ACME_MEMBER}', '${ACME}', 'Member', true),
      ('${GLOBEX_ADMIN}', '${GLOBEX}', 'Admin', true);
  `);
  await apply('0014_second_factors');
});
afterAll(() => db?.close());

describe('migration 0014 on a database with tenants', () => {
  it('adds tenant:write as a system permission of every tenant, taking over a same-named one', async () => {
    const { rows } = await db.query<{ tenant_id: string; name: string; is_system: boolean }>(
      `select tenant_id, name, is_system from permissions
         where lower(name) = 'tenant:write' order by tenant_id`,
    );
    expect(rows).toEqual([
      { tenant_id: ACME, name: 'tenant:write', is_system: true },
      { tenant_id: GLOBEX, name: 'tenant:write', is_system: true },
    ]);
  });

  it('grants it to the Admin roles alone', async () => {
    const { rows } = await db.query<{ role_id: string }>(
      `select role_id from role_permissions
         join permissions on permissions.id = permission_id
         where permissions.name = 'tenant:write' order by role_id`,
    );
    expect(rows).toEqual([{ role_id: ACME_ADMIN }, { role_id: GLOBEX_ADMIN }]);
  });

  it('starts every tenant on the default policy, and the database keeps to its bounds', async () => {
    const { rows } = await db.query(
      `select mfa_policy, password_min_length, password_require_special, password_refuse_common
         from tenants where id = '${ACME}'`,
    );
    expect(rows).toEqual([
      {
        mfa_policy: 'optional',
        password_min_length: 8,
        password_require_special: true,
        password_refuse_common: true,
      },
    ]);
    for (const change of [`mfa_policy = 'sometimes'`, 'password_min_length = 7']) {
      await expect(db.exec(`update tenants set ${change} where id = '${ACME}'`)).rejects.toThrow(
        /check constraint/,
      );
    }
  });
});
