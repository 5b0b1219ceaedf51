import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../db/schema/tenants';
import { ConsoleFiles } from './helpers/console-files';
import { GOOGLE_CLIENT_ID, startTestIssuer, type TestIssuer } from './helpers/google-test-issuer';
import { createTenant, signIn, type TenantFixture } from './fixtures';
import { startTestServer, SUPER_ADMIN_PASSWORD, type TestServer } from './harness';
import { leakedSecrets, LogCapture } from './log-capture';
import { startOpenAiMock, type OpenAiMock } from './openai-mock';
import { AREAS } from './secret-route-areas';
import { ASSISTANT_API_KEY, driveConsoleFiles } from './secret-route-cases-console';
import { NEW_PASSWORD, SIGNUP_PASSWORD, WRONG_PASSWORD } from './secret-route-cases-more';
import { openIdWhileStoreFails } from './secret-route-cases-openid';
import { API, call, COOKIE_SECRET, mailedToken, type Drive } from './secret-route-cases';
import { keepNewSecrets, storedSecrets, withFailingTable } from './stored-secrets';

/**
 * No secret ever reaches a log line. The real server runs with its real logger at `trace`;
 * every route of its route table is driven with the secrets known at that point, queries are
 * made to fail with secrets among their parameters, and the output is searched for every
 * secret, as is, URL-encoded and JSON-escaped. One server serves every test, area after area:
 * each test searches all the output so far for all the secrets known so far.
 */

// One area's requests on a busy two-core machine, with room to spare.
const AREA_BUDGET = 120_000;

const capture = new LogCapture();
const routes = new Set<string>();
const consoleFiles = new ConsoleFiles();
/** Secrets at rest seen after each area: a row replaced later stays a secret. */
const atRest = new Map<string, string>();
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
      ASSISTANT_API_KEY,
      GOOGLE_CLIENT_ID,
      GOOGLE_JWKS_URL: issuer.jwksUrl,
      ACCOUNT_RATE_LIMIT: '1000',
      ACCOUNT_TOKEN_RATE_LIMIT: '1000',
    },
    {
      logStream: capture,
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
        consoleFiles.onRoute(route);
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
    ['assistant API key', ASSISTANT_API_KEY],
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
    consoleFiles,
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
}, AREA_BUDGET);
afterAll(async () => {
  await server?.close();
  await mock?.close();
  await issuer?.close();
});

/** Every line so far against every secret known so far: those met, and those at rest. */
async function expectNoSecretLogged() {
  keepNewSecrets(atRest, await storedSecrets(server));
  const secrets = new Map(drive.secrets);
  keepNewSecrets(secrets, atRest);
  const output = capture.text;
  expect(leakedSecrets(output, secrets)).toEqual([]);
  expect(output).not.toContain('$argon2');
}

const FAILING_PASSWORD = 'Failing-secret-pass#5';

/** Queries that fail inside the database while their parameters hold secrets. */
async function failingQueries(d: Drive) {
  d.secrets.set('password of a failing write', FAILING_PASSWORD);
  const onHost = async (path: string, body: object, status: number) => {
    const answer = await call(d, 'POST', `${API}/auth/${path}`, { host: d.host, token: '', body });
    expect(answer.status, `${path}: ${answer.text}`).toBe(status);
  };
  await onHost('forgot-password', { email: d.tenant.adminEmail }, 202);
  const token = await mailedToken(d, d.tenant.adminEmail);
  const tokens = await d.signIn(d.tenant.name, d.tenant.adminEmail, d.admin.password);
  const path = `/realms/${d.tenant.name}/protocol/openid-connect/token`;
  const form = async (fields: Record<string, string>, status: number) => {
    const answer = await call(d, 'POST', path, {
      token: '',
      body: new URLSearchParams({ client_id: 'react-client', ...fields }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status, `${fields.grant_type}: ${answer.text}`).toBe(status);
  };
  await withFailingTable(server, 'users', async () => {
    await onHost('reset-password', { token, password: FAILING_PASSWORD }, 500);
    // Neither the name nor the address is in the password: the policy lets it reach the insert.
    const email = `fay@${d.tenant.domain}`;
    await onHost('signup', { fullName: 'Fay Faulty', email, password: FAILING_PASSWORD }, 500);
  });
  await withFailingTable(server, 'refresh_tokens', async () => {
    await form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, 500);
    const grant = { grant_type: 'password', username: d.tenant.adminEmail };
    await form({ ...grant, password: d.admin.password }, 500);
  });
  await withFailingTable(server, 'action_tokens', async () => {
    // Answered as for any address, so that none can be probed; the failure is only logged.
    await onHost('forgot-password', { email: d.tenant.adminEmail }, 202);
  });
  await openIdWhileStoreFails(d, (run) => withFailingTable(server, 'oidc_payloads', run));
}

describe('secrets never logged', () => {
  it('has a case for every route the server has, and a route for every case', () => {
    const cases = new Map<string, string>();
    for (const area of AREAS) {
      for (const [route] of area.cases) {
        expect(cases.get(route), `${route} is driven in two areas`).toBeUndefined();
        cases.set(route, area.name);
      }
    }
    // The built console's files are each requested by driveConsoleFiles.
    expect(AREAS.filter((area) => area.alsoDrive === driveConsoleFiles)).toHaveLength(1);
    const covered = (route: string) => cases.has(route) || consoleFiles.has(route);
    // A HEAD route answers like its GET: the GET case covers it.
    const uncovered = [...routes].filter(
      (route) =>
        !covered(route) && !(route.startsWith('HEAD ') && covered(`GET ${route.slice(5)}`)),
    );
    expect(routes.size).toBeGreaterThan(50);
    expect(uncovered).toEqual([]);
    // Fastify tells of a prefix's `/` twin by its HEAD route alone (GET /api/docs/).
    const known = (route: string) =>
      routes.has(route) || (route.startsWith('GET ') && routes.has(`HEAD ${route.slice(4)}`));
    expect([...cases.keys()].filter((route) => !known(route))).toEqual([]);
    // Files are the console's only while it is built; its fallback page is the server's own.
    expect(consoleFiles.keys.size > 0).toBe(consoleFiles.built);
    expect(consoleFiles.has('GET /*')).toBe(false);
  });

  for (const area of AREAS) {
    it(`drives ${area.name}, and no line holds a secret`, { timeout: AREA_BUDGET }, async () => {
      const before = capture.text.length;
      for (const [route, run] of area.cases) {
        await run(drive).catch((error: Error) => {
          error.message = `${route}: ${error.message}`;
          throw error;
        });
      }
      await area.alsoDrive?.(drive);
      // The logger wrote the area's requests, at `trace` with their details.
      expect(capture.text.length).toBeGreaterThan(before);
      await expectNoSecretLogged();
    });
  }

  it(
    'makes queries fail with secrets as parameters, and no line holds a secret',
    {
      timeout: AREA_BUDGET,
    },
    async () => {
      await failingQueries(drive);
      const output = capture.text;
      expect(output).toContain('request failed');
      expect(output).toContain('mail kept in the outbox');
      await expectNoSecretLogged();
    },
  );
});
