import { inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import { userImportRows, userImports } from '../../db/schema/user-import';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { openSeededDatabase, type SeededDatabase } from '../../test/harness';
import { BATCH_SIZE } from './prune';
import { createRetentionJob, type RetentionJob } from './job';

const config = loadConfig({ SEED_DEMO: 'false', LOG_LEVEL: 'silent' });
const quiet = { info: () => undefined, error: () => undefined };
const ago = (days: number) => sql`now() - make_interval(days => ${days})`;

let seeded: SeededDatabase;
let database: DatabaseHandle;
let tenant: TenantFixture;
let job: RetentionJob;

beforeAll(async () => {
  seeded = await openSeededDatabase(config);
  database = seeded.database;
  tenant = await createTenant(database.db);
  job = createRetentionJob({ db: database.db, config }, quiet);
});
afterAll(async () => {
  await job?.stop();
  await seeded?.close();
});

/** An import last touched at `updatedAt` with `rows` staged rows. */
async function addImport(state: string, updatedAt: SQL, rows: number): Promise<string> {
  const [row] = await database.db
    .insert(userImports)
    .values({ tenantId: tenant.tenantId, state, updatedAt })
    .returning({ id: userImports.id });
  const importId = row!.id;
  for (let start = 0; start < rows; start += 1000) {
    const lines = Array.from({ length: Math.min(1000, rows - start) }, (_, i) => start + i + 2);
    await database.db
      .insert(userImportRows)
      .values(lines.map((line) => ({ importId, line, cells: [`a${line}@x.test`] })));
  }
  return importId;
}

describe('retention of user imports', () => {
  it('removes imports left for a week and cut uploads after a day, rows first, in batches', async () => {
    const bigRows = BATCH_SIZE * 2 + 5;
    const oldDone = await addImport('done', ago(8), bigRows);
    const cutUpload = await addImport('receiving', ago(2), 3);
    const recentDone = await addImport('done', ago(6), 2);
    const liveUpload = await addImport('receiving', sql`now()`, 2);

    const run = await job.runOnce();
    expect(run).toMatchObject({
      ran: true,
      counts: { userImportRowsDeleted: bigRows + 3, userImportsDeleted: 2 },
    });

    const left = await database.db
      .select({ id: userImports.id })
      .from(userImports)
      .where(inArray(userImports.id, [oldDone, cutUpload, recentDone, liveUpload]));
    expect(left.map((row) => row.id).sort()).toEqual([recentDone, liveUpload].sort());
    const rowsLeft = await database.db
      .select({ importId: userImportRows.importId })
      .from(userImportRows)
      .where(inArray(userImportRows.importId, [oldDone, cutUpload, recentDone, liveUpload]));
    expect(rowsLeft).toHaveLength(4);
  });
});
