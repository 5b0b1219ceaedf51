import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../db/schema/tenants';
import { GOOGLE_CLIENT_ID, startTestIssuer, type TestIssuer } from './helpers/google-test-issuer';
import { createTenant, signIn, type TenantFixture } from './fixtures';
import { startTestServer, SUPER_ADMIN_PASSWORD, type TestServer } from './harness';
import { leakedSecrets, LogCapture } from './log-capture';
import { startOpenAiMock, type OpenAiMock } from './openai-mock';
import { openIdWhileStoreFails } from './secret-route-cases-openid';
import {
  CASES,
  NEW_PASSWORD,
  openPage,
  SIGNUP_PASSWORD,
  WRONG_PASSWORD,
} from './secret-route-cases-more';
import {
  API,
  call,
  COOKIE_SECRET,
  junkBody,
  mailedToken,
  secretQuery,
  type Drive,
} from './secret-route-cases';
import { storedSecrets, withFailingTable } from './stored-secrets';

/**
 * No secret ever reaches a log line. The real server runs with its real logger at `trace`;
 * every route of its route table is driven with the secrets known at that point, queries are
 * made to fail with secrets among their parameters, and then the whole output is searched
 * for every secret, as is, URL-encoded and JSON-escaped.
 */

const API_KEY = 'sk-test-secret-assistant-key-5b7e';
const capture = new LogCapture();
const routes = new Set<string>();
let server: TestServer;
let mock: OpenAiMock;
let issuer: TestIssuer;
let drive: Drive;

beforeAll(async () => {
  mock = await startOpenAiMock();
  issuer = await startTestIssuer();
  server = await startTestServer(
    {
      LOG_LEVEL: 'trace',
      MAIL_POLL_MS: '50',
      ASSISTANT_BASE_URL: mock.url,
      ASSISTANT_API_KEY: API_KEY,
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: issuer.jwksUrl,
      ACCOUNT_RATE_LIMIT: '1000',
      ACCOUNT_TOKEN_RATE_LIMIT: '1000',
    },
    {
      logStream: capture,
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
      },
    },
  );
  const tenant: TenantFixture = await createTenant(server.database.db);
  await server.database.db
    .update(tenants)
    .set({ allowSignup: true })
    .where(eq(tenants.id, tenant.tenantId));
  const secrets = new Map<string, string>([
    ['admin password', tenant.password],
    ['super administrator password', SUPER_ADMIN_PASSWORD],
    ['new password', NEW_PASSWORD],
    ['sign-up password', SIGNUP_PASSWORD],
    ['wrong password', WRONG_PASSWORD],
    ['assistant API key', API_KEY],
    ['cookie', COOKIE_SECRET],
  ]);
  const admin = { access: '', refresh: '', password: tenant.password };
  let signIns = 0;
  drive = {
    server,
    mock,
    issuer,
    tenant,
    host: `${tenant.domain}:${new URL(server.url).port}`,
    admin,
    superToken: '',
    secrets,
    ids: {},
    async signIn(realm, email, password) {
      const tokens = await signIn(server, realm, email, password);
      signIns += 1;
      secrets.set(`access token ${signIns}`, tokens.access_token);
      secrets.set(`refresh token ${signIns}`, tokens.refresh_token);
      if (email === tenant.adminEmail) {
        admin.access = tokens.access_token;
        admin.refresh = tokens.refresh_token;
      }
      return tokens as unknown as Record<string, string>;
    },
  };
  await drive.signIn(tenant.name, tenant.adminEmail, tenant.password);
  const master = await drive.signIn('master', 'admin@example.com', SUPER_ADMIN_PASSWORD);
  drive.superToken = master.access_token!;
});
afterAll(async () => {
  await server?.close();
  await mock?.close();
  await issuer?.close();
});

const FAILING_PASSWORD = 'Failing-secret-pass#5';

/** Sends `body`, expecting `status`, then the junk body, expecting a 4xx. */
async function bodies(d: Drive, method: string, path: string, body: unknown, status: number) {
  const answer = await call(d, method, path, { body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
  const junk = await call(d, method, path, { body: junkBody(d) });
  expect(junk.status, `${method} ${path} with junk`).toBeGreaterThanOrEqual(400);
  expect(junk.status, `${method} ${path} with junk`).toBeLessThan(500);
}

const getOk = (path: string) => async (d: Drive) => {
  expect((await call(d, 'GET', `${path}${secretQuery(d)}`)).status).toBe(200);
};

const LIVE_CASES: [string, (d: Drive) => Promise<void>][] = [
  [`POST ${API}/audit/page`, (d) => bodies(d, 'POST', `${API}/audit/page`, {}, 200)],
  [`GET ${API}/dashboard`, getOk(`${API}/dashboard`)],
  [`GET ${API}/onboarding`, getOk(`${API}/onboarding`)],
  [
    `PUT ${API}/onboarding`,
    (d) => bodies(d, 'PUT', `${API}/onboarding`, { step: 'first-step' }, 200),
  ],
  [
    `POST ${API}/onboarding/skip`,
    async (d) => {
      // No body is read here: the junk one is ignored.
      const skip = await call(d, 'POST', `${API}/onboarding/skip`, { body: junkBody(d) });
      expect(skip.status).toBe(200);
    },
  ],
  [`GET ${API}/settings/security`, getOk(`${API}/settings/security`)],
  [
    `PUT ${API}/settings/security`,
    (d) =>
      bodies(
        d,
        'PUT',
        `${API}/settings/security`,
        // The defaults, so the cases after this one set passwords under the same rules.
        {
          mfaPolicy: 'optional',
          passwordMinLength: 8,
          passwordRequireSpecial: true,
          passwordRefuseCommon: true,
        },
        200,
      ),
  ],
  [`GET ${API}/assistant`, getOk(`${API}/assistant`)],
  [
    `POST ${API}/assistant/chat`,
    async (d) => {
      const content = `My password is ${d.admin.password}, my token ${d.admin.refresh}.`;
      const chat = (messages: unknown) =>
        call(d, 'POST', `${API}/assistant/chat`, { body: { messages } });
      d.mock.script(
        { toolCalls: [{ name: 'list_users', arguments: { search: d.admin.password } }] },
        { text: 'Done.' },
      );
      expect((await chat([{ role: 'user', content }])).text).toContain('Done.');
      // Providers echo a wrong key in their error; it reaches the log masked.
      d.mock.script({ status: 401, body: `Incorrect API key provided: ${API_KEY}` });
      expect((await chat([{ role: 'user', content }])).text).toContain('event: error');
      d.mock.script({ raw: `data: {"error":{"message":"The key ${API_KEY} is revoked"}}\n\n` });
      expect((await chat([{ role: 'user', content }])).text).toContain('event: error');
      expect((await chat(junkBody(d).messages.concat([{ role: 'x', content }]))).status).toBe(400);
    },
  ],
  [
    `GET ${API}/events`,
    async (d) => {
      const token = encodeURIComponent(d.admin.access);
      const open = (query: string, options = {}) =>
        call(d, 'GET', `${API}/events${query}`, { token: '', headersOnly: true, ...options });
      for (const name of ['access_token', 'access%5Ftoken', '%61ccess_token', 'access%5ftoken']) {
        expect((await open(`?${name}=${token}&lastEventId=1`)).status, name).toBe(200);
      }
      expect((await open(`?ACCESS_TOKEN=${token}`)).status).toBe(401);
      expect((await open(`?access_token=${encodeURIComponent(d.admin.refresh)}`)).status).toBe(401);
      const header = { token: d.admin.access, headers: { 'last-event-id': d.admin.refresh } };
      const password = encodeURIComponent(d.admin.password);
      expect((await open(`?password=${password}`, header)).status).toBe(200);
      // The token thrice under one name is not a string: refused, and still logged safely.
      expect((await open(secretQuery(d), header)).status).toBe(400);
    },
  ],
  [
    'GET /*',
    async (d) => {
      for (const path of ['/newpassword?token=', '/verifyemail?token=', '/?code=']) {
        await openPage(d, `${path}${encodeURIComponent(d.admin.refresh)}`);
      }
      await openPage(d, `/dashboard/users${secretQuery(d)}`);
    },
  ],
];

/** Queries that fail inside the database while their parameters hold secrets. */
async function failingQueries(d: Drive) {
  d.secrets.set('password of a failing write', FAILING_PASSWORD);
  const onHost = (path: string, body: object) =>
    call(d, 'POST', `${API}/auth/${path}`, { host: d.host, token: '', body });
  expect((await onHost('forgot-password', { email: d.tenant.adminEmail })).status).toBe(202);
  const token = await mailedToken(d, d.tenant.adminEmail);
  const tokens = await d.signIn(d.tenant.name, d.tenant.adminEmail, d.admin.password);
  const path = `/realms/${d.tenant.name}/protocol/openid-connect/token`;
  const form = (fields: Record<string, string>) => ({
    token: '',
    body: new URLSearchParams({ client_id: 'react-client', ...fields }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  await withFailingTable(server, 'users', async () => {
    const reset = await onHost('reset-password', { token, password: FAILING_PASSWORD });
    expect(reset.status).toBe(500);
    // Neither the name nor the address is in the password: the policy lets it reach the insert.
    const email = `fay@${d.tenant.domain}`;
    await onHost('signup', { fullName: 'Fay Faulty', email, password: FAILING_PASSWORD });
  });
  await withFailingTable(server, 'refresh_tokens', async () => {
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };
    expect((await call(d, 'POST', path, form(refresh))).status).toBe(500);
    const grant = { grant_type: 'password', username: d.tenant.adminEmail };
    await call(d, 'POST', path, form({ ...grant, password: d.admin.password }));
  });
  await withFailingTable(server, 'action_tokens', async () => {
    await onHost('forgot-password', { email: d.tenant.adminEmail });
  });
  await openIdWhileStoreFails(d, (run) => withFailingTable(server, 'oidc_payloads', run));
}

const allCases = () => new Map([...CASES, ...LIVE_CASES]);

describe('secrets never logged', () => {
  it('has a case for every route the server has', () => {
    const cases = allCases();
    // A HEAD route answers like its GET: the GET case covers it.
    const uncovered = [...routes].filter(
      (route) =>
        !cases.has(route) && !(route.startsWith('HEAD ') && cases.has(`GET ${route.slice(5)}`)),
    );
    expect(routes.size).toBeGreaterThan(50);
    expect(uncovered).toEqual([]);
  });

  it('drives every route and failing queries, and no line holds a secret', async () => {
    for (const [route, run] of allCases()) {
      await run(drive).catch((error: Error) => {
        error.message = `${route}: ${error.message}`;
        throw error;
      });
    }
    await failingQueries(drive);
    const output = capture.text;
    expect(output).toContain('request failed');
    expect(output).toContain('mail kept in the outbox');
    const secrets = new Map([...drive.secrets, ...(await storedSecrets(server))]);
    expect(leakedSecrets(output, secrets)).toEqual([]);
    expect(output).not.toContain('$argon2');
  });
});
