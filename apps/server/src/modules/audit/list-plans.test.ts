import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_SORT_FIELDS,
  auditPageRequestSchema,
  type AuditPageRequest,
} from '@tc/contract/audit';
import { COUNT_CAP } from '@tc/contract/paging';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  firstValue,
  listUnderTest,
  plansOf,
  rawClient,
  readsOf,
  rowsOf,
  type RawClient,
  type Statement,
} from '../../test/helpers/list-plans';
import { EXPORT_BATCH_SIZE, exportBatches } from './export';
import { pageAudit } from './queries';

/**
 * The plans of the audit log's statements, exactly as the list sends them, on a tenant of
 * 20,000 entries beside a smaller one: every sort in both directions, alone and with each
 * filter and their combinations, at the first, a middle and the last page the count reaches.
 * No shape reads the table from end to end or sorts the tenant's entries, and no page skips
 * more index entries than its offset.
 */
const ENTRIES = 20_000;
const PAGE_SIZE = 10;

let server: TestServer;
let client: RawClient;
let tenant: TenantFixture;
let busyActor: string;
let busyActorEmail: string;
let history: { entityId: string; entries: number };

const value = <T>(text: string, params?: unknown[]) => firstValue<T>(client, text, params);

beforeAll(async () => {
  server = await startTestServer();
  client = rawClient(server);
  tenant = await createTenant(server.database.db);
  const other = await createTenant(server.database.db);
  // 5,000 users each, of whom the first 50 act: the e-mail search must find its few users by
  // their index, not read them all.
  for (const t of [tenant, other]) {
    await client.query(
      `insert into users (tenant_id, email, first_name, last_name, role_id)
       select $1, case when g <= 50 then 'actor' else 'user' end || g || '@' || $2,
         'First' || g, 'Last' || g, $3
       from generate_series(1, 5000) g`,
      [t.tenantId, t.domain, t.memberRoleId],
    );
  }
  // The first actor made three in five of the changes, every 20th was the system's; one entity
  // has a long history, the others one to three entries each.
  const insert = (tenantId: string, entries: number) =>
    client.query(
      `insert into audit_log (tenant_id, actor_id, action, entity, entity_id, created_at)
       select $1,
         case when g % 20 = 0 then null when g % 5 < 3 then a.ids[1]
           else a.ids[2 + g % (array_length(a.ids, 1) - 1)] end,
         (array['create','update','delete'])[1 + (g * 7) % 3],
         (array['users','roles','permissions','projects','clients','tenant'])[1 + (g / 3) % 6],
         case when g % 100 = 0 then 'long-history' else md5((g / 3)::text)::uuid::text end,
         timestamptz '2026-01-01' + (g / 2) * interval '1 minute'
       from generate_series(1, $2::int) g,
         (select array_agg(id order by email) ids from users
          where tenant_id = $1 and email like 'actor%') a`,
      [tenantId, entries],
    );
  await insert(tenant.tenantId, ENTRIES);
  await insert(other.tenantId, 3_000);
  await client.query('vacuum analyze');
  busyActor = await value(
    `select actor_id from audit_log where tenant_id = $1 and actor_id is not null
     group by actor_id order by count(*) desc limit 1`,
    [tenant.tenantId],
  );
  busyActorEmail = await value('select email from users where id = $1', [busyActor]);
  history = {
    entityId: 'long-history',
    entries: await value(
      `select count(*)::int from audit_log where tenant_id = $1 and entity_id = 'long-history'`,
      [tenant.tenantId],
    ),
  };
}, 120_000);
afterAll(() => server?.close());

const list = listUnderTest({
  page: pageAudit,
  parse: (body): AuditPageRequest => auditPageRequestSchema.parse(body),
  sortFields: AUDIT_SORT_FIELDS,
  pageSize: PAGE_SIZE,
  scope: () => ({ server, tenantId: tenant.tenantId }),
});

describe(`the audit log's plans at ${ENTRIES} entries`, () => {
  const filters = (): Record<string, AuditPageRequest['filter']> => ({
    none: {},
    entity: { entity: 'projects' },
    action: { action: 'update' },
    actor: { actorId: busyActor },
    'entity and action': { entity: 'projects', action: 'update' },
    'actor and entity': { actorId: busyActor, entity: 'users' },
    'actor and action': { actorId: busyActor, action: 'delete' },
    'actor, entity and action': { actorId: busyActor, entity: 'roles', action: 'create' },
  });

  for (const field of AUDIT_SORT_FIELDS) {
    it(`sorted by ${field}, both ways, with each filter: pages walk one index, nothing is sorted`, async () => {
      for (const filter of Object.values(filters())) {
        await list.pagePlans(field, filter, (statements, shape, { pageIndex }) => {
          const reads = readsOf(statements, 'audit_log');
          expect(reads.seqScans, shape).toEqual([]);
          // The last, short batch may be found by a bitmap and sorted: never more than a batch.
          for (const sorted of reads.sorted) {
            expect(sorted, shape).toBeLessThanOrEqual(EXPORT_BATCH_SIZE);
          }
          const walked = Math.max(...reads.indexScans.map((scan) => scan.rows));
          expect(walked, shape).toBeLessThanOrEqual(
            Math.max(pageIndex * PAGE_SIZE + 1, COUNT_CAP + 1),
          );
          const rows = readsOf(statements, 'audit_log', 'without init plans');
          const pageWalk = Math.max(...rows.indexScans.map((scan) => scan.rows));
          expect(pageWalk, shape).toBeLessThanOrEqual(pageIndex * PAGE_SIZE + 1);
        });
      }
    });
  }

  it("one entity's history: sorted by entity or action, at most it is sorted", async () => {
    await list.firstPagePlans({ entityId: history.entityId }, (statements, shape) => {
      const reads = readsOf(statements, 'audit_log');
      expect(reads.seqScans, shape).toEqual([]);
      expect(
        reads.indexScans.map((scan) => scan.index),
        shape,
      ).toContain('audit_log_entity_id_idx');
      for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(history.entries);
    });
  });

  it('a search matching few entries finds them by the trigram indexes and sorts only them', async () => {
    // Four characters of an entity id in the planner's statistics, which it guesses to match
    // far more entries than the few that do; two that start a few entity ids.
    const bound = await value<string>(
      `select (histogram_bounds::text::text[])[50] from pg_stats
       where tablename = 'audit_log' and attname = 'entity_id'`,
    );
    for (const [search, pattern] of [
      [bound.slice(3, 7), `%${bound.slice(3, 7)}%`],
      [bound.slice(0, 2), `%\n${bound.slice(0, 2)}%`],
    ] as const) {
      const matches = await value<number>(
        'select count(*)::int from audit_log where tenant_id = $1 and search like $2',
        [tenant.tenantId, pattern],
      );
      expect(matches).toBeGreaterThan(0);
      expect(matches).toBeLessThan(ENTRIES / 100);
      await list.firstPagePlans({ search }, (statements, shape) => {
        const reads = readsOf(statements, 'audit_log');
        expect(reads.seqScans, shape).toEqual([]);
        expect(reads.bitmapIndexes, shape).toContain('audit_log_search_trgm_idx');
        for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(matches);
      });
    }
  });

  it("an actor's e-mail leads to the actor's entries; a search matching many walks the sort index", async () => {
    expect(await list.totalOf({ search: busyActorEmail })).toBe(COUNT_CAP);
    // The users a search names are looked up first, by the e-mail trigram index; more than a
    // thousand of them ("user" is in nearly every e-mail) are found by a subquery instead.
    for (const search of [busyActorEmail, 'actor1@', 'proj', 'user']) {
      await list.firstPagePlans({ search }, (statements, shape) => {
        expect(statements, shape).toHaveLength(2);
        const [actors, page] = statements as [Statement, Statement];
        // A fragment most e-mails contain may be looked for by reading users until enough match.
        for (const scan of readsOf([actors], 'users').seqScans) {
          expect(search, shape).toBe('user');
          expect(rowsOf(scan), shape).toBe(1001);
        }
        const rows = readsOf([page], 'audit_log', 'without init plans');
        expect(rows.seqScans, shape).toEqual([]);
        expect(rows.sorted, shape).toEqual([]);
        const total = readsOf([page], 'audit_log');
        expect(total.sorted, shape).toEqual([]);
        for (const scan of total.seqScans) expect(rowsOf(scan), shape).toBe(COUNT_CAP + 1);
      });
    }
  });

  it('a date range starts and ends the walk of the time index; with filters it reads only its entries', async () => {
    // 100 minutes: two entries a minute.
    const range = { from: '2026-01-03T00:00:00Z', to: '2026-01-03T01:40:00Z' };
    const inRange = await value<number>(
      `select count(*)::int from audit_log where tenant_id = $1
       and created_at >= $2 and created_at < $3`,
      [tenant.tenantId, range.from, range.to],
    );
    expect(inRange).toBeGreaterThan(100);
    expect(await list.totalOf(range)).toBe(inRange);
    await list.pagePlans('createdAt', range, (statements, shape) => {
      const reads = readsOf(statements, 'audit_log');
      expect(reads.seqScans, shape).toEqual([]);
      expect(reads.sorted, shape).toEqual([]);
      // Besides reading the page's entries by id, the one index walked is the time's.
      const walks = reads.indexScans.filter((scan) => scan.index !== 'audit_log_pkey');
      expect(walks.length, shape).toBeGreaterThan(0);
      for (const scan of walks) {
        expect(scan.index, shape).toBe('audit_log_tenant_created_idx');
        expect(scan.rows, shape).toBeLessThanOrEqual(inRange + 1);
      }
    });
    for (const filter of [
      { ...range, entity: 'projects' },
      { ...range, actorId: busyActor },
    ]) {
      await list.firstPagePlans(filter, (statements, shape) => {
        const reads = readsOf(statements, 'audit_log');
        expect(reads.seqScans, shape).toEqual([]);
        for (const scan of reads.indexScans) {
          expect(scan.rows, shape).toBeLessThanOrEqual(inRange + 1);
        }
        // A sort takes only the entries of the range.
        for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(inRange);
      });
    }
  });

  it('the export reads batch after batch from where the last ended, never again what one read', async () => {
    const requests: AuditPageRequest['filter'][] = [
      {},
      { entity: 'projects' },
      { actorId: busyActor },
    ];
    for (const filter of requests) {
      const total = await value<number>(
        `select count(*)::int from audit_log where tenant_id = $1
         and ($2::text is null or entity = $2) and ($3::uuid is null or actor_id = $3)`,
        [tenant.tenantId, filter.entity ?? null, filter.actorId ?? null],
      );
      for (const field of AUDIT_SORT_FIELDS) {
        const request = auditPageRequestSchema.parse({ filter, listSort: { field, direction: 1 } });
        const statements = await plansOf(server, async (db) => {
          for await (const batch of exportBatches(db, tenant.tenantId, request)) void batch;
        });
        const shape = `${JSON.stringify(filter)}, ${field}`;
        expect(statements).toHaveLength(Math.ceil((total + 1) / EXPORT_BATCH_SIZE));
        for (const [i, statement] of statements.entries()) {
          const reads = readsOf([statement], 'audit_log');
          const remaining = total - i * EXPORT_BATCH_SIZE;
          expect(reads.seqScans, shape).toEqual([]);
          // A batch walks its index from the last one's end; when few entries remain, the
          // planner may find them by a bitmap and keep the first thousand (a top-N sort).
          for (const sorted of reads.sorted) expect(sorted, shape).toBeLessThanOrEqual(remaining);
          for (const scan of reads.indexScans) {
            const bound = reads.sorted.length ? remaining : EXPORT_BATCH_SIZE;
            expect(scan.rows, shape).toBeLessThanOrEqual(bound + 1);
          }
        }
        // The first batch of thousands sorts nothing.
        expect(readsOf(statements.slice(0, 1), 'audit_log').sorted, shape).toEqual([]);
      }
    }
  });

  it('a page past the last has no rows and still tells the total, counted on its own', async () => {
    for (const filter of [
      { entity: 'projects' },
      { actorId: busyActor, action: 'delete' },
    ] as const) {
      const { total, beyond } = await list.pastTheLastPage(filter);
      expect(total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(beyond, JSON.stringify(filter)).toMatchObject({ data: [], totalCount: total });
    }
  });
});
