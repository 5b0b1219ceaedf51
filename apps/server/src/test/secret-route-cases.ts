import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { mailOutbox } from '../db/schema/mail';
import type { ConsoleFiles } from './helpers/console-files';
import type { TestIssuer } from './helpers/google-test-issuer';
import type { TenantFixture } from './fixtures';
import type { TestServer } from './harness';
import { send, type Answer, type SendOptions } from './log-capture';
import type { OpenAiMock } from './openai-mock';
import { keepNewSecrets, secondFactorsAtRest } from './stored-secrets';

/**
 * What the "secrets never logged" test drives: for every route of the server, requests with
 * valid and with invalid input, each carrying the secrets known at that point (in the
 * Authorization header, a cookie, the query and the body). Keyed by `METHOD url` as the
 * server's route table names them; a route without a case fails the test.
 */

export const API = '/api/v1.0';

export interface Drive {
  server: TestServer;
  mock: OpenAiMock;
  issuer: TestIssuer;
  tenant: TenantFixture;
  /** Tenant A's own host, which the public account routes are sent to. */
  host: string;
  /** Tenant A's administrator's current tokens and password. */
  admin: { access: string; refresh: string; password: string };
  superToken: string;
  /** Every secret met so far, by a name for the report. */
  secrets: Map<string, string>;
  /** Ids made by one case and used by a later one. */
  ids: Record<string, string>;
  signIn(realm: string, email: string, password: string): Promise<Record<string, string>>;
  /** The built console's file routes (none while it is not built). */
  consoleFiles: ConsoleFiles;
}

export const COOKIE_SECRET = 'cookie-secret-6f1d2a9c';

/** Sends with the cookie and the admin's bearer token unless told otherwise. */
export function call(d: Drive, method: string, path: string, options: SendOptions = {}) {
  return send(d.server, method, path, {
    token: d.admin.access,
    ...options,
    headers: { cookie: `tc_session=${COOKIE_SECRET}`, ...options.headers },
  });
}

/** The secrets in every place a query string can carry them, names encoded three ways. */
export function secretQuery(d: Drive): string {
  const token = encodeURIComponent(d.admin.access);
  const refresh = encodeURIComponent(d.admin.refresh);
  const password = encodeURIComponent(d.admin.password);
  return (
    `?access_token=${token}&access%5Ftoken=${token}&%61ccess_token=${token}` +
    `&Access_Token=${token}&refresh_token=${refresh}&token=${refresh}&code=${refresh}` +
    `&id_token_hint=${token}&password=${password}&client_secret=${password}`
  );
}

/** An invalid body that carries every known secret under the names a client might use. */
export function junkBody(d: Drive) {
  const all = [...d.secrets.values()];
  return {
    name: 42,
    id: 'not-an-id',
    pageSize: -1,
    step: 'no-such-step',
    email: all,
    password: d.admin.password,
    token: all.at(-1),
    refresh_token: d.admin.refresh,
    credential: 17,
    messages: [{ role: 'system', content: d.admin.password }],
    secrets: all,
  };
}

/** Sends `valid` (expecting `status`) and then the junk body, which must be refused with 4xx. */
async function validAndJunk(
  d: Drive,
  method: string,
  path: string,
  valid: unknown,
  status: number,
  options: SendOptions = {},
): Promise<Answer> {
  const label = `${method} ${path.split('?')[0]}`;
  const answer = await call(d, method, path, { ...options, body: valid });
  expect(answer.status, `${label}: ${answer.text}`).toBe(status);
  const junk = await call(d, method, path, { ...options, body: junkBody(d) });
  expect(junk.status, `${label} with junk: ${junk.text}`).toBeGreaterThanOrEqual(400);
  expect(junk.status, `${label} with junk: ${junk.text}`).toBeLessThan(500);
  return answer;
}

/** The token of the newest link mailed to `to`. */
export async function mailedToken(d: Drive, to: string): Promise<string> {
  let token: string | null = null;
  await expect
    .poll(async () => {
      const [mail] = await d.server.database.db
        .select({ text: mailOutbox.textBody })
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, to))
        .orderBy(desc(mailOutbox.createdAt))
        .limit(1);
      const link = mail?.text.split(/\s+/).find((word) => word.includes('?token='));
      token = link ? new URL(link).searchParams.get('token') : null;
      return token;
    })
    .toBeTruthy();
  d.secrets.set(`link token mailed to ${to}`, token!);
  return token!;
}

/**
 * Second-factor secrets a case was shown: the authenticator app's secret, and recovery codes as
 * shown and as the server compares them (no dashes). Their forms at rest (the sealed secret,
 * the codes' hashes) are read at once, since a later case may replace or remove them.
 */
export async function keepSecondFactorSecrets(
  d: Drive,
  label: string,
  shown: { secret?: string; recoveryCodes?: string[] },
): Promise<void> {
  if (shown.secret) d.secrets.set(`${label}: authenticator secret`, shown.secret);
  shown.recoveryCodes?.forEach((code, i) => {
    d.secrets.set(`${label}: recovery code ${i + 1}`, code);
    d.secrets.set(`${label}: recovery code ${i + 1} without dashes`, code.replace(/-/g, ''));
  });
  keepNewSecrets(d.secrets, await secondFactorsAtRest(d.server));
}

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 7),
]);
export const uploadPng = (d: Drive, path: string, token: string) =>
  call(d, 'PUT', path, { token, body: PNG, headers: { 'content-type': 'image/png' } });

/** The five routes every managed entity has, driven with valid and invalid bodies. */
export function crudCases(
  entity: string,
  make: (d: Drive) => { create: object; update: (id: string) => object },
  deleteMethod = 'POST',
  token: (d: Drive) => string = (d) => d.admin.access,
): [string, (d: Drive) => Promise<void>][] {
  const path = `${API}/${entity}`;
  const as = (d: Drive) => ({ token: token(d) });
  return [
    [
      `POST ${path}/page`,
      async (d) => {
        await validAndJunk(d, 'POST', `${path}/page${secretQuery(d)}`, {}, 200, as(d));
      },
    ],
    [
      `POST ${path}/create`,
      async (d) => {
        const created = await validAndJunk(d, 'POST', `${path}/create`, make(d).create, 201, as(d));
        d.ids[entity] = (JSON.parse(created.text) as { data: { id: string } }).data.id;
      },
    ],
    [
      `PUT ${path}/update`,
      async (d) => {
        await validAndJunk(d, 'PUT', `${path}/update`, make(d).update(d.ids[entity]!), 200, as(d));
      },
    ],
    [
      `GET ${path}/:id`,
      async (d) => {
        const answer = await call(d, 'GET', `${path}/${d.ids[entity]}${secretQuery(d)}`, as(d));
        expect(answer.status).toBe(200);
        expect((await call(d, 'GET', `${path}/not-an-id`, as(d))).status).toBe(400);
      },
    ],
    [
      `${deleteMethod} ${path}/delete/:id`,
      async (d) => {
        const answer = await call(d, deleteMethod, `${path}/delete/${d.ids[entity]}`, as(d));
        expect(answer.status, answer.text).toBe(200);
        const bad = await call(d, deleteMethod, `${path}/delete/not-an-id`, as(d));
        expect(bad.status).toBe(400);
      },
    ],
  ];
}
