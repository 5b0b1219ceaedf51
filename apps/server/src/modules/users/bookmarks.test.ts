import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserPageRequest } from '@tc/contract/users';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import type { Caller } from '../../identity/token-service';
import { EmailBookmarks } from './bookmarks';
import { pageUsers } from './queries';
import { insertUser } from './queries';

// A stride of 4 puts bookmarks where a 27-user list can reach them (the product uses 1,000).
let server: TestServer;
let tenant: TenantFixture;
let bookmarks: EmailBookmarks;
let stop: () => Promise<void>;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  for (let i = 0; i < 26; i += 1) {
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      // Pairs share an e-mail prefix order with the id as tie-break material.
      email: `u${String(i % 13).padStart(2, '0')}-${i}@bookmarks.test`,
      firstName: 'B',
      lastName: String(i),
      roleId: tenant.memberRoleId,
    });
  }
  ({ bookmarks, stop } = await EmailBookmarks.listening(server.database, 4));
});
afterAll(async () => {
  await stop?.();
  await server?.close();
});

const caller = () => ({ tenantId: tenant.tenantId }) as Caller;
const request = (pageIndex: number, direction: 0 | 1): UserPageRequest => ({
  pageIndex,
  pageSize: 3,
  filter: {},
  listSort: { field: 'email', direction },
});

async function emails(pageIndex: number, direction: 0 | 1, withBookmarks: boolean) {
  const page = await pageUsers({
    db: server.database.db,
    config: server.config,
    caller: caller(),
    request: request(pageIndex, direction),
    bookmarks: withBookmarks ? bookmarks : undefined,
  });
  return page.data.map((row) => row.email);
}

describe('keyset bookmarks for deep pages', () => {
  it('give exactly the pages plain OFFSET gives, both directions, up to past the end', async () => {
    for (const direction of [0, 1] as const) {
      for (let pageIndex = 1; pageIndex <= 11; pageIndex += 1) {
        expect(await emails(pageIndex, direction, true)).toEqual(
          await emails(pageIndex, direction, false),
        );
      }
    }
  });

  it('are forgotten when the tenant’s users change, so pages stay right', async () => {
    expect(await emails(5, 0, true)).toEqual(await emails(5, 0, false));
    await server.database.db.transaction(async (tx) => {
      const { recordChange } = await import('../audit/record');
      const id = await insertUser(tx, {
        tenantId: tenant.tenantId,
        email: 'a-first@bookmarks.test',
        firstName: 'A',
        lastName: 'First',
        roleId: tenant.memberRoleId,
      });
      await recordChange(tx, {
        tenantId: tenant.tenantId,
        actorId: null,
        entity: 'users',
        action: 'create',
        entityId: id,
      });
    });
    await expect
      .poll(async () => JSON.stringify(await emails(5, 0, true)))
      .toBe(JSON.stringify(await emails(5, 0, false)));
  });
});
