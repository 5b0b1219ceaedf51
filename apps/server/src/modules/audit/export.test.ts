import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPageRequest } from '@tc/contract/audit';
import { api, createTenant, signIn, type TenantFixture } from '../../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../../test/harness';
import { rawClient } from '../../test/helpers/list-plans';
import { insertRole } from '../roles';
import { insertUser } from '../users';
import { recordChange, type Change } from './record';

/**
 * The date range of the list, and the CSV export, over HTTP: the export holds exactly the rows
 * the list pages through, in its order, across several of its batches.
 */
let server: TestServer;
let a: TenantFixture;
let b: TenantFixture;
let tokenA: string;
let tokenB: string;

/** Entries of the bulk: more than two export batches, many of them made at the same instant. */
const BULK = 2_300;

type Body = Partial<Omit<AuditPageRequest, 'filter'>> & { filter?: Record<string, unknown> };

const post = (token: string, path: string, body: Body) =>
  api(server, path, token, { method: 'POST', body: JSON.stringify(body) });

async function pageOf(token: string, body: Body) {
  const response = await post(token, '/audit/page', body);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: { data: AuditEntry[]; totalCount: number } }).data;
}

/** The export's records, header first, as a spreadsheet program reads the file. */
async function exported(token: string, body: Body) {
  const response = await post(token, '/audit/export', body);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toMatch(
    /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(bytes.subarray(3).toString('utf8')) as string[][];
}

/** Every row of the list, paged through 100 at a time, as the console would. */
async function everyPageRow(token: string, body: Body) {
  const rows: AuditEntry[] = [];
  for (let pageIndex = 1; ; pageIndex++) {
    const page = await pageOf(token, { ...body, pageIndex, pageSize: 100 });
    rows.push(...page.data);
    if (page.data.length < 100) return rows;
  }
}

const record = (change: Change) => server.database.db.transaction((tx) => recordChange(tx, change));

beforeAll(async () => {
  server = await startTestServer();
  a = await createTenant(server.database.db);
  b = await createTenant(server.database.db);
  tokenA = (await signIn(server, a.name, a.adminEmail, TEST_PASSWORD)).access_token;
  tokenB = (await signIn(server, b.name, b.adminEmail, TEST_PASSWORD)).access_token;
  // Three days of tenant A at noon, and one entry whose cells a spreadsheet would evaluate.
  const client = rawClient(server);
  await client.query(
    `insert into audit_log (tenant_id, actor_id, action, entity, entity_id, before, after, created_at)
     values ($1, $2, 'create', 'projects', 'day-1', null, '{"name":"one"}', '2026-03-01T12:00:00Z'),
            ($1, $2, 'update', 'projects', 'day-2', '{"name":"one"}', '{"name":"two"}', '2026-03-02T12:00:00Z'),
            ($1, null, 'delete', 'projects', 'day-3', '{"name":"two"}', null, '2026-03-03T12:00:00Z')`,
    [a.tenantId, a.adminId],
  );
  await record({
    tenantId: a.tenantId,
    actorId: a.adminId,
    entity: 'users',
    action: 'update',
    entityId: '=HYPERLINK("http://evil.example")',
    before: { firstName: 'Ada' },
    after: { firstName: '@Ava', note: 'line\nbreak, "quoted"' },
  });
  // Tenant B: the bulk, in runs of ten entries of one microsecond, each run a microsecond
  // apart, so batches end inside runs and between microseconds of one millisecond.
  await client.query(
    `insert into audit_log (tenant_id, actor_id, action, entity, entity_id, created_at)
     select $1, $2, (array['create','update','delete'])[1 + g % 3],
       (array['users','projects'])[1 + g % 2], 'bulk-' || g,
       timestamptz '2026-05-01T00:00:00Z' + (g / 10) * interval '1 microsecond'
     from generate_series(1, $3::int) g`,
    [b.tenantId, b.adminId, BULK],
  );
}, 60_000);
afterAll(() => server?.close());

describe('the date range of POST /audit/page', () => {
  const ids = async (filter: Record<string, unknown>) =>
    (await pageOf(tokenA, { filter, listSort: { field: 'createdAt', direction: 0 } })).data
      .map((row) => row.entityId)
      .filter((id) => id.startsWith('day-'));

  it('takes entries from `from` (inclusive) until `to` (exclusive)', async () => {
    expect(await ids({ from: '2026-03-02T12:00:00Z' })).toEqual(['day-2', 'day-3']);
    expect(await ids({ to: '2026-03-02T12:00:00Z' })).toEqual(['day-1']);
    expect(await ids({ from: '2026-03-01T12:00:00Z', to: '2026-03-03T12:00:00Z' })).toEqual([
      'day-1',
      'day-2',
    ]);
    // An offset is a point in time like any other: 13:00+01:00 is noon UTC.
    expect(await ids({ from: '2026-03-03T13:00:00+01:00' })).toEqual(['day-3']);
    expect(await ids({ from: '2026-03-02T00:00:00Z', to: '2026-03-02T00:00:00Z' })).toEqual([]);
  });

  it('combines with the other filters and the search', async () => {
    const range = { from: '2026-03-01T00:00:00Z', to: '2026-03-04T00:00:00Z' };
    expect(await ids({ ...range, action: 'update' })).toEqual(['day-2']);
    expect(await ids({ ...range, actorId: a.adminId })).toEqual(['day-1', 'day-2']);
    expect(await ids({ ...range, search: 'day-3' })).toEqual(['day-3']);
  });

  it('refuses a range ending before it starts, and times that are not ISO 8601, naming the field', async () => {
    const reversed = await post(tokenA, '/audit/page', {
      filter: { from: '2026-03-02T00:00:00Z', to: '2026-03-01T23:59:59Z' },
    });
    expect(reversed.status).toBe(400);
    expect(await reversed.json()).toMatchObject({
      fields: { 'filter.to': { code: 'audit.range_reversed' } },
    });
    for (const from of [
      'yesterday',
      '2026-02-30T00:00:00Z',
      '2026-03-01',
      '0000-01-01T00:00:00Z',
    ]) {
      const answer = await post(tokenA, '/audit/page', { filter: { from } });
      expect(answer.status, from).toBe(400);
      expect(await answer.json(), from).toMatchObject({
        fields: { 'filter.from': { code: 'audit.time_invalid' } },
      });
    }
  });
});

describe('POST /audit/export', () => {
  it('answers the columns, with before and after as JSON, every cell safe from formulas', async () => {
    const [header, ...rows] = await exported(tokenA, { filter: { entity: 'users' } });
    expect(header).toEqual([
      'time',
      'actor_email',
      'entity',
      'action',
      'entity_id',
      'before',
      'after',
    ]);
    const entry = rows.find((row) => row[4]!.includes('HYPERLINK'))!;
    expect(entry[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(entry.slice(1, 5)).toEqual([
      a.adminEmail,
      'users',
      'update',
      `'=HYPERLINK("http://evil.example")`,
    ]);
    expect(JSON.parse(entry[5]!)).toEqual({ firstName: 'Ada' });
    expect(JSON.parse(entry[6]!)).toEqual({ firstName: '@Ava', note: 'line\nbreak, "quoted"' });
  });

  it('holds the rows of the filtered list in its order, a created entry without before', async () => {
    const body = { filter: { entity: 'projects', to: '2026-03-03T00:00:00Z' } };
    const [, ...rows] = await exported(tokenA, body);
    expect(rows).toEqual([
      [
        '2026-03-02T12:00:00.000Z',
        a.adminEmail,
        'projects',
        'update',
        'day-2',
        '{"name":"one"}',
        '{"name":"two"}',
      ],
      [
        '2026-03-01T12:00:00.000Z',
        a.adminEmail,
        'projects',
        'create',
        'day-1',
        '',
        '{"name":"one"}',
      ],
    ]);
  });

  it("matches the list's rows and order across batches, in every sort and with filters", async () => {
    const bodies: Body[] = [
      {},
      { listSort: { field: 'createdAt', direction: 0 } },
      { listSort: { field: 'entity', direction: 0 } },
      { listSort: { field: 'action', direction: 1 } },
      { filter: { action: 'update' }, listSort: { field: 'entity', direction: 1 } },
      { filter: { search: 'bulk-1' } },
      {
        filter: { from: '2026-05-01T00:00:00.000050Z', to: '2026-05-01T00:00:00.000200Z' },
        listSort: { field: 'createdAt', direction: 0 },
      },
    ];
    for (const body of bodies) {
      const listed = (await everyPageRow(tokenB, body)).map((row) => row.entityId);
      const [, ...rows] = await exported(tokenB, body);
      expect(listed.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(
        rows.map((row) => row[4]),
        JSON.stringify(body),
      ).toEqual(listed);
    }
    const [, ...all] = await exported(tokenB, {});
    expect(new Set(all.map((row) => row[4])).size).toBe(BULK);
  });

  it("answers only the caller's tenant's entries", async () => {
    const [, ...rows] = await exported(tokenA, {});
    expect(rows.some((row) => row[4]!.startsWith('bulk-'))).toBe(false);
    expect(rows.map((row) => row[4])).toEqual(expect.arrayContaining(['day-1', 'day-2', 'day-3']));
    // Another tenant's actor id filters to nothing.
    const [, ...none] = await exported(tokenA, { filter: { actorId: b.adminId } });
    expect(none).toEqual([]);
  });

  it('refuses a bad request with 400, naming the field', async () => {
    const reversed = await post(tokenA, '/audit/export', {
      filter: { from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' },
    });
    expect(reversed.status).toBe(400);
    expect(await reversed.json()).toMatchObject({
      fields: { 'filter.to': { code: 'audit.range_reversed' } },
    });
    const unknown = await post(tokenA, '/audit/export', { filter: { password: 'x' } } as Body);
    expect(unknown.status).toBe(400);
  });

  it('answers 401 without a token and 403 without audit:read', async () => {
    expect((await post('', '/audit/export', {})).status).toBe(401);
    const email = `reader.${randomUUID().slice(0, 8)}@${a.domain}`;
    await server.database.db.transaction(async (tx) => {
      const roleId = await insertRole(tx, {
        tenantId: a.tenantId,
        name: `Reader ${randomUUID().slice(0, 8)}`,
        permissionIds: [a.permissionIds.get('users:read')!],
      });
      await insertUser(tx, {
        tenantId: a.tenantId,
        email,
        firstName: 'Rea',
        lastName: 'Der',
        roleId,
        password: TEST_PASSWORD,
      });
    });
    const { access_token } = await signIn(server, a.name, email, TEST_PASSWORD);
    const refused = await post(access_token, '/audit/export', {});
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain('day-1');
  });
});
