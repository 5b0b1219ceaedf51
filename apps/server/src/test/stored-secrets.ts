import { inArray, isNotNull, sql } from 'drizzle-orm';
import { clients } from '../db/schema/clients';
import { actionTokens, refreshTokens, signingKeys, users } from '../db/schema/identity';
import { mailOutbox } from '../db/schema/mail';
import { oidcPayloads } from '../db/schema/oidc';
import { recoveryCodes, totpSecrets } from '../db/schema/second-factors';
import type { TestServer } from './harness';

/**
 * The secrets the database holds after a run: every password hash, the digests of refresh
 * and link tokens and of client secrets, the link tokens of every mail, the private halves
 * of the signing keys, the OpenID provider's codes, refresh tokens and browser sessions
 * (it keeps each under the very value it hands out), and the second factors at rest.
 */
export async function storedSecrets(server: TestServer): Promise<Map<string, string>> {
  const { db } = server.database;
  const secrets = new Map<string, string>();
  const add = (kind: string, values: (string | null | undefined)[]) =>
    values.forEach((value, i) => value && secrets.set(`${kind} ${i + 1}`, value));
  const hashes = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(isNotNull(users.passwordHash));
  add(
    'password hash',
    hashes.map((row) => row.hash),
  );
  add(
    'refresh token digest',
    (await db.select().from(refreshTokens)).map((r) => r.tokenHash),
  );
  add(
    'link token digest',
    (await db.select().from(actionTokens)).map((r) => r.tokenHash),
  );
  add(
    'client secret digest',
    (await db.select({ hash: clients.secretHash }).from(clients)).map((r) => r.hash),
  );
  const mails = await db.select({ text: mailOutbox.textBody }).from(mailOutbox);
  const links = mails.flatMap((mail) =>
    mail.text.split(/\s+/).filter((w) => w.includes('?token=')),
  );
  add(
    'mailed link token',
    links.map((link) => new URL(link).searchParams.get('token')),
  );
  const keys = await db.select({ jwk: signingKeys.privateJwk }).from(signingKeys);
  add(
    'signing key',
    keys.map((key) => key.jwk.d as string | undefined),
  );
  const artifacts = await db
    .select({ model: oidcPayloads.model, id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(inArray(oidcPayloads.model, ['AuthorizationCode', 'RefreshToken', 'Session']));
  for (const model of ['AuthorizationCode', 'RefreshToken', 'Session']) {
    add(
      `provider ${model}`,
      artifacts.filter((row) => row.model === model).map((row) => row.id),
    );
  }
  keepNewSecrets(secrets, await secondFactorsAtRest(server));
  return secrets;
}

/**
 * The second factors as the database keeps them: each authenticator app's encrypted secret and
 * each recovery code's hash. Rows are replaced and deleted as factors change, so the cases
 * that change them read these right away (see keepNewSecrets).
 */
export async function secondFactorsAtRest(server: TestServer): Promise<Map<string, string>> {
  const { db } = server.database;
  const secrets = new Map<string, string>();
  const apps = await db.select({ sealed: totpSecrets.secretEncrypted }).from(totpSecrets);
  apps.forEach((row, i) => secrets.set(`encrypted authenticator secret ${i + 1}`, row.sealed));
  const codes = await db.select({ hash: recoveryCodes.codeHash }).from(recoveryCodes);
  codes.forEach((row, i) => secrets.set(`recovery code hash ${i + 1}`, row.hash));
  return secrets;
}

/**
 * Adds to `known` every secret of `found` it does not hold yet, under a name of its own: a
 * secret seen once stays known after its row is gone.
 */
export function keepNewSecrets(known: Map<string, string>, found: Map<string, string>): void {
  const values = new Set(known.values());
  for (const [name, value] of found) {
    if (values.has(value)) continue;
    let key = name;
    for (let n = 2; known.has(key); n += 1) key = `${name} (${n})`;
    known.set(key, value);
    values.add(value);
  }
}

/**
 * Runs `run` while every write to `table` fails inside the database, as a lost connection or
 * a broken constraint would: the statement's error then carries its parameters.
 */
export async function withFailingTable(
  server: TestServer,
  table: 'users' | 'sessions' | 'refresh_tokens' | 'action_tokens' | 'oidc_payloads',
  run: () => Promise<void>,
): Promise<void> {
  const { db } = server.database;
  await db.execute(sql`create table if not exists test_failing_tables (name text primary key)`);
  await db.execute(
    sql.raw(`create or replace function test_fail_writes() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from test_failing_tables where name = TG_TABLE_NAME) then
          raise exception 'injected failure';
        end if;
        return coalesce(new, old);
      end $$`),
  );
  await db.execute(
    sql.raw(`create or replace trigger test_fail_writes before insert or update or delete
      on ${table} for each row execute function test_fail_writes()`),
  );
  await db.execute(sql`insert into test_failing_tables values (${table}) on conflict do nothing`);
  try {
    await run();
  } finally {
    await db.execute(sql`delete from test_failing_tables where name = ${table}`);
  }
}
