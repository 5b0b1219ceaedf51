import { request } from 'node:http';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, signIn, uniqueName, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { insertRole } from '../roles';
import { userPageRequestSchema } from '@tc/contract/users';
import { insertUser, userExportBatches } from '../users';

/**
 * Over HTTP on either engine: the users export holds exactly the rows that paging through
 * POST /users/page shows for the same filter, search and sort, in the same order, and nothing
 * of another tenant; its file is what a spreadsheet reads safely.
 */
let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;
let token: string;
let editorRoleId: string;

const HEADER = ['E-mail', 'First name', 'Last name', 'Role', 'Status', 'Invited', 'Created'];
const FIRST = ['anna', 'Anna', 'Ben', 'Émile', 'Zoë', 'de Wit', 'Mia', 'Max'];
const LAST = ['Berg', 'berg', 'Álvarez', 'Zhou', "O'Neil", 'Müller', 'Kim'];
const FORMULAS = ['=HYPERLINK("http://evil.test","x")', '+1', '-1', '@x'];

beforeAll(async () => {
  server = await startTestServer();
  const db = server.database.db;
  tenant = await createTenant(db);
  other = await createTenant(db);
  token = (await signIn(server, tenant.name, tenant.adminEmail, TEST_PASSWORD)).access_token;
  editorRoleId = await insertRole(db, {
    tenantId: tenant.tenantId,
    name: 'Editor',
    permissionIds: [],
  });
  for (let i = 0; i < 60; i += 1) {
    await insertUser(db, {
      tenantId: tenant.tenantId,
      email: `user${String(i).padStart(2, '0')}@export.test`,
      firstName: FIRST[i % FIRST.length]!,
      lastName: LAST[(i >> 1) % LAST.length]!,
      roleId: i % 3 === 0 ? editorRoleId : tenant.memberRoleId,
      status: i % 4 === 0 ? 'inactive' : 'active',
    });
  }
  for (const [i, formula] of FORMULAS.entries()) {
    await insertUser(db, {
      tenantId: tenant.tenantId,
      email: `formula${i}@export.test`,
      firstName: formula,
      lastName: formula,
      roleId: tenant.memberRoleId,
    });
  }
  // Another tenant's users match every search below; none may appear.
  for (let i = 0; i < 10; i += 1) {
    await insertUser(db, {
      tenantId: other.tenantId,
      email: `user${i}@export.test`,
      firstName: 'Anna',
      lastName: 'Berg',
      roleId: other.memberRoleId,
    });
  }
}, 60_000);
afterAll(() => server?.close());

function exportUsers(body: unknown, bearer = token, headers: Record<string, string> = {}) {
  return api(server, '/users/export', bearer, {
    method: 'POST',
    body: JSON.stringify(body),
    headers,
  });
}

/** The file's records, header first, after checking the byte order mark and the CRLF lines. */
async function records(body: unknown): Promise<string[][]> {
  const response = await exportUsers(body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toMatch(
    /^attachment; filename="users-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  return parse(text, { record_delimiter: '\r\n' });
}

interface PageRow {
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  status: string;
  createdAt: string;
}

/** Every row the page route shows for the request, page by page. */
async function pagedRows(request: { filter?: object; listSort?: object }): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  for (let pageIndex = 1; ; pageIndex += 1) {
    const response = await api(server, '/users/page', token, {
      method: 'POST',
      body: JSON.stringify({ ...request, pageIndex, pageSize: 7 }),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()).data as { data: PageRow[]; totalCount: number };
    rows.push(...page.data);
    if (page.data.length < 7) return rows;
  }
}

/** Starts an export, reads its first piece and closes the connection, as a closed tab does. */
function leaveMidFile(bearer: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const exporting = request(
      `${server.url}/api/v1.0/users/export`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      },
      (answer) => {
        expect(answer.statusCode).toBe(200);
        answer.once('data', () => {
          exporting.destroy();
          resolve();
        });
      },
    );
    exporting.once('error', reject);
    exporting.end('{}');
  });
}

/** The e-mails of a file, in its order, formula cells as written. */
const emailsOf = (file: string[][]) => file.slice(1).map((record) => record[0]);

describe('POST /users/export', () => {
  it('writes the header and every user of the tenant as the list shows them, dates ISO 8601', async () => {
    const file = await records({});
    expect(file[0]).toEqual(HEADER);
    const paged = await pagedRows({});
    expect(file).toHaveLength(paged.length + 1);
    expect(emailsOf(file)).toEqual(paged.map((row) => row.email));
    const admin = file.find((record) => record[0] === tenant.adminEmail)!;
    const adminRow = paged.find((row) => row.email === tenant.adminEmail)!;
    expect(admin).toEqual([
      adminRow.email,
      adminRow.firstName,
      adminRow.lastName,
      adminRow.role,
      'active',
      'no',
      adminRow.createdAt,
    ]);
    expect(admin[6]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  const requests = [
    { filter: { status: 'active' }, listSort: { field: 'firstName', direction: 1 } },
    { filter: { search: 'an' }, listSort: { field: 'lastName', direction: 0 } },
    { filter: { search: 'berg', status: 'inactive' }, listSort: { field: 'email', direction: 1 } },
    { filter: {}, listSort: { field: 'role', direction: 0 } },
    { filter: { search: 'user' }, listSort: { field: 'role', direction: 1 } },
    { filter: {}, listSort: { field: 'status', direction: 1 } },
    { filter: {}, listSort: { field: 'createdAt', direction: 1 } },
  ];
  it.each(requests)('holds the rows of the pages for $filter by $listSort', async (request) => {
    const paged = await pagedRows(request);
    expect(paged.length).toBeGreaterThan(0);
    const file = await records({ ...request, pageIndex: 3, pageSize: 5 });
    expect(emailsOf(file)).toEqual(paged.map((row) => row.email));
    // Batches of 4: each starts after the last row of the one before, across ties and roles.
    const batched: string[] = [];
    const batches = userExportBatches(
      server.database.db,
      tenant.tenantId,
      userPageRequestSchema.parse(request),
      4,
    );
    for await (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(4);
      batched.push(...batch.map((row) => row.email));
    }
    expect(batched).toEqual(paged.map((row) => row.email));
  });

  it('keeps to the role filter, and answers a header alone when nothing matches', async () => {
    const file = await records({ filter: { roleId: editorRoleId } });
    expect(file.slice(1).every((record) => record[3] === 'Editor')).toBe(true);
    expect(file).toHaveLength(21);
    expect(await records({ filter: { search: 'nobody-like-this' } })).toEqual([HEADER]);
  });

  it('writes formula-like names with an apostrophe, so no spreadsheet evaluates them', async () => {
    const file = await records({ filter: { search: 'formula' } });
    const names = file.slice(1).map((record) => record[1]);
    expect(names.sort()).toEqual(FORMULAS.map((formula) => `'${formula}`).sort());
  });

  it("never holds another tenant's users, not even another tenant's role", async () => {
    const file = await records({ filter: { search: 'anna' } });
    expect(file.length).toBeGreaterThan(1);
    expect(file.slice(1).every((record) => record[0]!.startsWith('user'))).toBe(true);
    const emails = emailsOf(file);
    expect(emails).not.toContain('user5@export.test');
    expect(await records({ filter: { roleId: other.memberRoleId } })).toEqual([HEADER]);
  });

  it("names the columns in the caller's language when the console speaks it, else in English, separated as its spreadsheet expects", async () => {
    const header = async (language: string) => {
      const response = await exportUsers({ filter: { search: 'nobody' } }, token, {
        'accept-language': language,
      });
      expect(response.status).toBe(200);
      return (await response.text()).replace(/^\uFEFF/, '').split('\r\n')[0];
    };
    expect(await header('de-CH, en;q=0.5')).toBe(
      'E-Mail;Vorname;Nachname;Rolle;Status;Eingeladen;Erstellt',
    );
    expect(await header('fr')).toBe('E-mail;Prénom;Nom de famille;Rôle;Statut;Invité;Créé le');
    expect(await header('ja, it;q=0.8')).toBe('E-mail;Nome;Cognome;Ruolo;Stato;Invitato;Creato il');
    expect(await header('ja')).toBe(HEADER.join(','));
  });

  it('answers bad bodies 400 with problem details naming the field', async () => {
    const response = await exportUsers({ listSort: { field: 'password' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const unknownFilter = await exportUsers({ filter: { tenantId: other.tenantId } });
    expect(unknownFilter.status).toBe(400);
    expect((await exportUsers({ filter: { search: 'a\u0000b' } })).status).toBe(400);
  });

  it('answers 401 without a token and 403 without users:read', async () => {
    expect((await exportUsers({}, '')).status).toBe(401);
    const noneRole = await insertRole(server.database.db, {
      tenantId: tenant.tenantId,
      name: uniqueName('None'),
      permissionIds: [],
    });
    const email = `${uniqueName('n')}@export.test`;
    await insertUser(server.database.db, {
      tenantId: tenant.tenantId,
      email,
      firstName: 'No',
      lastName: 'Body',
      roleId: noneRole,
      password: TEST_PASSWORD,
    });
    const nobody = await signIn(server, tenant.name, email, TEST_PASSWORD);
    const response = await exportUsers({}, nobody.access_token);
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('streams a large tenant complete: 20,000 users, each once, in order', async () => {
    const big = await createTenant(server.database.db);
    await server.database.db.execute(
      sql.raw(`insert into users (tenant_id, email, first_name, last_name, role_id, status)
        select '${big.tenantId}', 'bulk' || lpad(g::text, 5, '0') || '@export.test',
          'Bulk', 'User ' || g, '${big.memberRoleId}', 'active'
        from generate_series(1, 20000) g`),
    );
    const bigToken = (await signIn(server, big.name, big.adminEmail, TEST_PASSWORD)).access_token;
    const response = await exportUsers({ listSort: { field: 'email', direction: 0 } }, bigToken);
    expect(response.status).toBe(200);
    const file: string[][] = parse((await response.text()).replace(/^\uFEFF/, ''));
    expect(file).toHaveLength(20_002);
    const bulk = emailsOf(file).filter((email) => email!.startsWith('bulk'));
    expect(bulk).toHaveLength(20_000);
    expect(new Set(bulk).size).toBe(20_000);
    expect(bulk[0]).toBe('bulk00001@export.test');
    expect(bulk.at(-1)).toBe('bulk20000@export.test');

    // A client that goes away mid-file (its connection closed) ends the export; the server
    // goes on answering, and closes at the end of the file as ever (afterAll would hang on a
    // response still being written).
    await leaveMidFile(bigToken);
    const after = await exportUsers({ filter: { search: 'bulk00001' } }, bigToken);
    expect(after.status).toBe(200);
    expect((await after.text()).split('\r\n')).toHaveLength(3);
  }, 120_000);
});
