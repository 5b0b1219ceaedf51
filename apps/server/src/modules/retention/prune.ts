import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { REPLAY_LIMIT } from '../events';

/** Rows one statement touches: each stays short, whatever the backlog. */
export const BATCH_SIZE = 1000;
/** Batches per kind and run: a run stays bounded; a larger backlog is left for the next. */
export const MAX_BATCHES = 100;

/** What one run removed or blanked, per kind (counts only: these are logged). */
export interface PruneCounts {
  /** Bodies whose link had expired, blanked (pending ones became `expired`). */
  mailBodiesBlanked: number;
  /** Sent, kept, dead and expired mail older than MAIL_RETENTION_DAYS. */
  mailDeleted: number;
  /** Sessions ended a day ago (revoked or past their lifetime), with their refresh tokens. */
  sessionsDeleted: number;
  /** Refresh tokens of ended sessions kept for their browser (see below). */
  refreshTokensDeleted: number;
  /** Single-use links (reset, invitation, verification) past their expiry. */
  linkTokensDeleted: number;
  /** The OpenID provider's expired artifacts (codes, grants, its refresh tokens). */
  openidPayloadsDeleted: number;
  /** Change events no Last-Event-ID replay can use any more. */
  eventsDeleted: number;
  /** Webhook deliveries finished (succeeded, failed or skipped) WEBHOOK_DELIVERY_RETENTION_DAYS ago. */
  webhookDeliveriesDeleted: number;
  /** Staged rows of user imports left alone for USER_IMPORT_RETENTION_DAYS (or a cut upload). */
  userImportRowsDeleted: number;
  /** Those user imports themselves, once their rows are gone. */
  userImportsDeleted: number;
}

/**
 * Days a finished webhook delivery stays in its endpoint's log: long enough to look into a
 * receiver's outage and resend what it missed. Pending ones are never pruned.
 */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30;

/**
 * Days an import's staged file stays after its last step, for its result download. An upload
 * cut off by a crash (still `receiving`) can never go on, so it goes after a day.
 */
export const USER_IMPORT_RETENTION_DAYS = 7;
/** Of the import `i`. */
const IMPORT_LEFT = sql`(
  i.updated_at < now() - make_interval(days => ${USER_IMPORT_RETENTION_DAYS})
  or (i.state = 'receiving' and i.updated_at < now() - interval '1 day'))`;

/** Runs one batch statement until it touches fewer rows than a batch, or the cap. */
async function inBatches(tx: Database, statement: (limit: number) => SQL): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const result = (await tx.execute(statement(BATCH_SIZE))) as unknown as {
      rowCount?: number | null;
      affectedRows?: number;
      rows: unknown[];
    };
    const touched = result.rowCount ?? result.affectedRows ?? result.rows.length;
    total += touched;
    if (touched < BATCH_SIZE) break;
  }
  return total;
}

/**
 * Deletes in batches the rows that `choose` selects (their keys as text), chosen in one pass
 * (at most a run's cap) rather than once per batch: the choice reads the whole table (a
 * window over all sessions, a join of all refresh tokens), and doing that per batch would
 * make a large backlog cost its square. `remove` deletes the rows whose keys are in `batch`.
 */
async function deleteChosen(
  tx: Database,
  choose: SQL,
  remove: (batch: SQL) => SQL,
): Promise<number> {
  await tx.execute(sql`create temporary table retention_chosen (key text) on commit drop`);
  await tx.execute(
    sql`insert into retention_chosen (key) ${choose} limit ${BATCH_SIZE * MAX_BATCHES}`,
  );
  const total = await inBatches(
    tx,
    (limit) => sql`
      with batch as (
        delete from retention_chosen
        where ctid in (select ctid from retention_chosen limit ${limit})
        returning key)
      ${remove(sql`batch`)}`,
  );
  await tx.execute(sql`drop table retention_chosen`);
  return total;
}

/**
 * A session no sign-in can continue (signed out, revoked, or past its absolute lifetime) for
 * a day: until then a client presenting its refresh token still hears why it ended.
 */
export const ENDED_GRACE_SECONDS = 24 * 3600;
const endedBefore = sql`now() - make_interval(secs => ${ENDED_GRACE_SECONDS})`;
const ENDED = sql`(s.revoked_at < ${endedBefore} or s.expires_at < ${endedBefore})`;

/**
 * Every pruning statement, run in the caller's transaction (which holds the job's lock).
 * Each selects at most one batch of ids and acts on those only.
 */
export async function pruneAll(tx: Database, config: Config): Promise<PruneCounts> {
  const mailKeptDays = config.mail.retentionDays;
  return {
    // A body must not hold a raw link token longer than the link works. A pending message
    // would only deliver a dead link: it ends `expired`. Rows the worker holds are skipped.
    mailBodiesBlanked: await inBatches(
      tx,
      (limit) => sql`
        update mail_outbox set text_body = '', html_body = '', link_expires_at = null,
          status = case when status = 'pending' then 'expired' else status end,
          last_error = case when status = 'pending' then 'link expired before delivery'
            else last_error end
        where id in (
          select id from mail_outbox
          where link_expires_at is not null and link_expires_at <= now()
          limit ${limit} for update skip locked)`,
    ),
    // Finished mail is kept MAIL_RETENTION_DAYS for inspection; a message is finished within
    // hours of being queued (MAIL_MAX_ATTEMPTS back-offs), so its age counts from then.
    mailDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from mail_outbox where id in (
          select id from mail_outbox
          where status in ('sent', 'kept', 'dead', 'expired')
            and created_at < now() - make_interval(days => ${mailKeptDays})
          limit ${limit})`,
    ),
    // Ended sessions also remember which browsers a user signed in from (a sign-in from a
    // new one is told to the user), so of the ended sessions only those with a newer session
    // of the same user and browser go: the memory stays, the table does not grow.
    sessionsDeleted: await deleteChosen(
      tx,
      sql`
        select id::text from (
          select s.id, s.revoked_at, s.expires_at, row_number() over (
            partition by s.user_id, s.browser_hash order by s.created_at desc, s.id desc) as nth
          from sessions s) s
        where s.nth > 1 and ${ENDED}`,
      (batch) => sql`delete from sessions where id in (select key::uuid from ${batch})`,
    ),
    // Refresh tokens are kept while their session lives (a used one presented again ends
    // the session: theft detection); once it ended none can be used.
    refreshTokensDeleted: await deleteChosen(
      tx,
      sql`
        select r.token_hash from refresh_tokens r join sessions s on s.id = r.session_id
        where ${ENDED}`,
      (batch) => sql`delete from refresh_tokens where token_hash in (select key from ${batch})`,
    ),
    linkTokensDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from action_tokens where id in (
          select id from action_tokens where expires_at <= now() limit ${limit})`,
    ),
    // The provider reads only unexpired artifacts; expired ones are what its own stores drop.
    openidPayloadsDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from oidc_payloads where (model, id) in (
          select model, id from oidc_payloads where expires_at <= now() limit ${limit})`,
    ),
    // A replay sends at most REPLAY_LIMIT events after the client's last one, which must
    // itself be kept: each tenant's newest REPLAY_LIMIT + 1 stay, older ones can only ever
    // answer "reload".
    eventsDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from events where id in (
          select e.id from tenants t
          cross join lateral (
            select n.id from events n where n.tenant_id = t.id
            order by n.id desc offset ${REPLAY_LIMIT} limit 1) oldest_kept
          join events e on e.tenant_id = t.id and e.id < oldest_kept.id
          limit ${limit})`,
    ),
    webhookDeliveriesDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from webhook_deliveries where id in (
          select id from webhook_deliveries
          where status in ('succeeded', 'failed', 'skipped')
            and created_at < now() - make_interval(days => ${WEBHOOK_DELIVERY_RETENTION_DAYS})
          limit ${limit})`,
    ),
    // An import may stage 200,000 rows: they go in batches before their import does, so no
    // one statement deletes a whole file through the cascade.
    userImportRowsDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from user_import_rows where (import_id, line) in (
          select r.import_id, r.line from user_imports i
          join user_import_rows r on r.import_id = i.id
          where ${IMPORT_LEFT} limit ${limit})`,
    ),
    userImportsDeleted: await inBatches(
      tx,
      (limit) => sql`
        delete from user_imports where id in (
          select i.id from user_imports i
          where ${IMPORT_LEFT}
            and not exists (select from user_import_rows r where r.import_id = i.id)
          limit ${limit})`,
    ),
  };
}
