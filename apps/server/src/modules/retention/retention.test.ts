import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import { events } from '../../db/schema/audit';
import { actionTokens, refreshTokens, sessions } from '../../db/schema/identity';
import { mailOutbox } from '../../db/schema/mail';
import { oidcPayloads } from '../../db/schema/oidc';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/webhooks';
import { sendInvitation } from '../../mail/account-mail';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { engine, openSeededDatabase, type SeededDatabase } from '../../test/harness';
import { REPLAY_LIMIT } from '../events';
import { createRetentionJob, type RetentionJob, type RetentionRun } from './job';

const config = loadConfig({ SEED_DEMO: 'false', LOG_LEVEL: 'silent', MAIL_RETENTION_DAYS: '7' });
const quiet = { info: () => undefined, error: () => undefined };
const ago = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;
const ahead = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;
const DAY = 24 * 3600;
/** Column values, times among them written as SQL relative to the database's now(). */
type Values<T> = { [K in keyof T]?: T[K] | SQL };
const TOKEN_BODY = 'Open http://localhost/newpassword?token=secret-token-1';

let seeded: SeededDatabase;
let database: DatabaseHandle;
let pgUrl: string | undefined;
let tenant: TenantFixture;
let other: TenantFixture;
let job: RetentionJob;

beforeAll(async () => {
  seeded = await openSeededDatabase(config);
  ({ database, url: pgUrl } = seeded);
  tenant = await createTenant(database.db);
  other = await createTenant(database.db);
  job = createRetentionJob({ db: database.db, config }, quiet);
});
afterAll(async () => {
  await job?.stop();
  await seeded?.close();
});

async function addMail(to: string, values: Values<typeof mailOutbox.$inferInsert>) {
  await database.db.insert(mailOutbox).values({
    tenantId: tenant.tenantId,
    toAddress: to,
    locale: 'en',
    subject: 'Subject',
    textBody: TOKEN_BODY,
    htmlBody: `<p>${TOKEN_BODY}</p>`,
    ...values,
  });
}

async function addSession(name: string, values: Values<typeof sessions.$inferInsert>) {
  const [row] = await database.db
    .insert(sessions)
    .values({ tenantId: tenant.tenantId, userId: tenant.adminId, expiresAt: ahead(DAY), ...values })
    .returning({ id: sessions.id });
  await database.db.insert(refreshTokens).values(
    ['used', 'live'].map((kind) => ({
      tokenHash: `${name}-${kind}`,
      tenantId: tenant.tenantId,
      sessionId: row!.id,
      usedAt: kind === 'used' ? ago(60) : null,
    })),
  );
  return row!.id;
}

async function addEvents(tenantId: string, count: number) {
  await database.db.execute(sql`
    insert into events (tenant_id, entity, action, entity_id)
    select ${tenantId}, 'users', 'updated', n::text from generate_series(1, ${count}) n`);
}

const mailOf = async (to: string) =>
  (await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)))[0];
const eventIds = async (tenantId: string) =>
  (
    await database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.tenantId, tenantId))
      .orderBy(events.id)
  ).map((r) => Number(r.id));

/** Deliveries of one endpoint: finished long ago (pruned), pending long ago and new (kept). */
async function addWebhookDeliveries(): Promise<string[]> {
  const [endpoint] = await database.db
    .insert(webhookEndpoints)
    .values({ tenantId: tenant.tenantId, url: 'https://hooks.example.test', secretSealed: 'x' })
    .returning({ id: webhookEndpoints.id });
  const delivery = (messageId: string, status: string, createdAt: SQL) => ({
    tenantId: tenant.tenantId,
    endpointId: endpoint!.id,
    messageId,
    eventType: 'user.created',
    payload: '{}',
    status,
    createdAt,
  });
  const rows = await database.db
    .insert(webhookDeliveries)
    .values([
      delivery('old-succeeded', 'succeeded', ago(31 * DAY)),
      delivery('old-failed', 'failed', ago(31 * DAY)),
      delivery('old-pending', 'pending', ago(31 * DAY)),
      delivery('new-done', 'succeeded', ago(DAY)),
    ])
    .returning({ id: webhookDeliveries.id });
  return rows.map((row) => row.id);
}

describe('retention job', () => {
  it('prunes exactly the expired and old rows of each kind and keeps the rest', async () => {
    const old = { createdAt: ago(8 * DAY) };
    await addMail('sent-old@x.test', { ...old, status: 'sent' });
    await addMail('kept-old@x.test', { ...old, status: 'kept' });
    await addMail('dead-old@x.test', { ...old, status: 'dead' });
    await addMail('expired-old@x.test', { ...old, status: 'expired' });
    await addMail('pending-old@x.test', { ...old, status: 'pending' });
    await addMail('sent-new@x.test', { createdAt: ago(6 * DAY), status: 'sent' });
    await addMail('dead-new@x.test', { createdAt: ago(DAY), status: 'dead' });
    await addMail('pending-link-gone@x.test', { linkExpiresAt: ago(60) });
    await addMail('kept-link-gone@x.test', { status: 'kept', linkExpiresAt: ago(60) });
    await addMail('pending-link-live@x.test', { linkExpiresAt: ahead(3600) });

    // Browser A: an ended session with a newer one from the same browser goes; browser B's
    // only (ended) session stays, as the memory that B is known, without its refresh tokens.
    const revokedA = await addSession('revoked-a', {
      browserHash: 'A',
      createdAt: ago(3 * DAY),
      revokedAt: ago(2 * DAY),
    });
    const expiredA = await addSession('expired-a', {
      browserHash: 'A',
      createdAt: ago(3 * DAY),
      expiresAt: ago(2 * DAY),
    });
    const liveA = await addSession('live-a', { browserHash: 'A', createdAt: ago(3600) });
    const endedB = await addSession('ended-b', { browserHash: 'B', expiresAt: ago(2 * DAY) });
    // Ended an hour ago: a client presenting its refresh token still hears why.
    const justEndedA = await addSession('just-ended-a', {
      browserHash: 'A',
      createdAt: ago(2 * DAY),
      revokedAt: ago(3600),
    });

    const link = (hash: string, expiresAt: ReturnType<typeof ago>) => ({
      tenantId: tenant.tenantId,
      userId: tenant.adminId,
      purpose: 'reset',
      tokenHash: hash,
      expiresAt,
    });
    await database.db
      .insert(actionTokens)
      .values([link('link-gone', ago(60)), link('link-live', ahead(600))]);

    const payload = (id: string, expiresAt: ReturnType<typeof ago> | null) => ({
      model: 'AuthorizationCode',
      id,
      tenantId: tenant.tenantId,
      payload: {},
      expiresAt,
    });
    await database.db
      .insert(oidcPayloads)
      .values([payload('gone', ago(60)), payload('live', ahead(600)), payload('forever', null)]);

    await addEvents(tenant.tenantId, REPLAY_LIMIT + 1 + 5);
    await addEvents(other.tenantId, 10);
    const eventsBefore = await eventIds(tenant.tenantId);
    const hookIds = await addWebhookDeliveries();

    const run = await job.runOnce();
    expect(run).toEqual({
      ran: true,
      counts: {
        mailBodiesBlanked: 2,
        mailDeleted: 4,
        sessionsDeleted: 2,
        refreshTokensDeleted: 2,
        linkTokensDeleted: 1,
        openidPayloadsDeleted: 1,
        eventsDeleted: eventsBefore.length - (REPLAY_LIMIT + 1),
        webhookDeliveriesDeleted: 2,
        userImportRowsDeleted: 0,
        userImportsDeleted: 0,
      },
    } satisfies RetentionRun);
    const hooksLeft = await database.db
      .select({ messageId: webhookDeliveries.messageId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, hookIds));
    expect(hooksLeft.map((row) => row.messageId).sort()).toEqual(['new-done', 'old-pending']);

    for (const gone of ['sent-old', 'kept-old', 'dead-old', 'expired-old']) {
      expect(await mailOf(`${gone}@x.test`), gone).toBeUndefined();
    }
    for (const kept of ['pending-old', 'sent-new', 'dead-new', 'pending-link-live']) {
      expect(await mailOf(`${kept}@x.test`), kept).toMatchObject({ textBody: TOKEN_BODY });
    }
    expect(await mailOf('pending-link-gone@x.test')).toMatchObject({
      status: 'expired',
      textBody: '',
      htmlBody: '',
      linkExpiresAt: null,
      lastError: 'link expired before delivery',
    });
    expect(await mailOf('kept-link-gone@x.test')).toMatchObject({
      status: 'kept',
      textBody: '',
      htmlBody: '',
    });

    const sessionIds = (await database.db.select({ id: sessions.id }).from(sessions)).map(
      (r) => r.id,
    );
    expect(sessionIds).not.toContain(revokedA);
    expect(sessionIds).not.toContain(expiredA);
    expect(sessionIds).toEqual(expect.arrayContaining([liveA, endedB, justEndedA]));
    const tokens = await database.db
      .select({ hash: refreshTokens.tokenHash })
      .from(refreshTokens)
      .where(inArray(refreshTokens.sessionId, [revokedA, expiredA, liveA, endedB, justEndedA]));
    expect(tokens.map((t) => t.hash).sort()).toEqual([
      'just-ended-a-live',
      'just-ended-a-used',
      'live-a-live',
      'live-a-used',
    ]);

    const links = await database.db.select({ hash: actionTokens.tokenHash }).from(actionTokens);
    expect(links.map((l) => l.hash)).toEqual(['link-live']);
    const payloads = await database.db.select({ id: oidcPayloads.id }).from(oidcPayloads);
    expect(payloads.map((p) => p.id).sort()).toEqual(['forever', 'live']);

    // The newest REPLAY_LIMIT + 1 of the tenant stay: its oldest kept event can still be
    // replayed from. The other tenant's few events are all kept.
    expect(await eventIds(tenant.tenantId)).toEqual(eventsBefore.slice(-(REPLAY_LIMIT + 1)));
    expect(await eventIds(other.tenantId)).toHaveLength(10);

    // A second run finds nothing left to do.
    const again = await job.runOnce();
    expect(again.ran && Object.values(again.counts).every((n) => n === 0)).toBe(true);
  }, 120_000);

  it('records when the link of a queued mail expires: with its token', async () => {
    await database.db.transaction((tx) =>
      sendInvitation(tx, 'http://localhost:8080', { userId: other.adminId, inviterId: null }),
    );
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, other.adminEmail));
    const [token] = await database.db
      .select()
      .from(actionTokens)
      .where(eq(actionTokens.userId, other.adminId));
    expect(mail!.textBody).toContain('token=');
    expect(mail!.linkExpiresAt).toEqual(token!.expiresAt);
  });

  it('runs in one process at a time: two jobs at once prune once', async () => {
    const second =
      engine === 'postgres'
        ? await openDatabase({ databaseUrl: pgUrl, dataDir: 'memory://', poolSize: 2 })
        : database;
    const jobs = [job, createRetentionJob({ db: second.db, config }, quiet)];
    try {
      for (let i = 0; i < 30; i++) {
        await addMail(`twice-${i}@x.test`, { createdAt: ago(8 * DAY), status: 'sent' });
      }
      const runs = await Promise.all(jobs.map((j) => j.runOnce()));
      const deleted = runs.map((r) => (r.ran ? r.counts.mailDeleted : 0));
      expect(deleted.reduce((a, b) => a + b)).toBe(30);
      expect(deleted).toContain(0);
    } finally {
      if (second !== database) await second.close();
    }
  }, 120_000);

  it('runs by itself after start and every RETENTION_INTERVAL, logging counts only', async () => {
    const lines: { obj: object; msg: string }[] = [];
    const log = {
      info: (obj: object, msg: string) => lines.push({ obj, msg }),
      error: (obj: object, msg: string) => lines.push({ obj, msg }),
    };
    const scheduled = createRetentionJob(
      { db: database.db, config: { ...config, retentionIntervalSeconds: 1 } },
      log,
    );
    await scheduled.start();
    try {
      await addMail('first-run@x.test', { createdAt: ago(8 * DAY), status: 'dead' });
      await expect
        .poll(async () => mailOf('first-run@x.test'), { timeout: 30_000 })
        .toBeUndefined();
      // A later run, on the interval, prunes what became old since.
      await addMail('later-run@x.test', { createdAt: ago(8 * DAY), status: 'sent' });
      await expect
        .poll(async () => mailOf('later-run@x.test'), { timeout: 30_000 })
        .toBeUndefined();
    } finally {
      await scheduled.stop();
    }
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.msg === 'retention run')).toBe(true);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain('@x.test');
    expect(logged).not.toContain('secret-token');
    expect(lines[0]!.obj).toMatchObject({
      mailDeleted: expect.any(Number),
      ms: expect.any(Number),
    });
  }, 120_000);

  it.runIf(engine === 'postgres')(
    'skips its round while another connection holds the lock',
    async () => {
      await addMail('locked-out@x.test', { createdAt: ago(8 * DAY), status: 'sent' });
      const holder = new pg.Client({ connectionString: pgUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select pg_advisory_xact_lock(727003)');
        expect(await job.runOnce()).toEqual({ ran: false });
        expect(await mailOf('locked-out@x.test')).toBeDefined();
        await holder.query('commit');
        expect(await job.runOnce()).toMatchObject({ ran: true, counts: { mailDeleted: 1 } });
        expect(await mailOf('locked-out@x.test')).toBeUndefined();
      } finally {
        await holder.end();
      }
    },
    120_000,
  );
});
