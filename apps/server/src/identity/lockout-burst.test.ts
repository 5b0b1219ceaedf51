import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures } from '../db/schema/identity';
import { createTenant, tokenRequest } from '../test/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { attemptKey } from './brute-force';
import { CookieJar, discover, insertClient } from '../test/helpers/relying-party';
import * as oidc from 'openid-client';

// A parallel burst of guesses must get no more of them checked than the same guesses sent
// one after the other: the lock check and the count are one atomic step per user.

const FACTOR = 5;
let server: TestServer;
let quick: TestServer;
beforeAll(async () => {
  // Long waits, so no lock runs out while a test looks at it.
  server = await startTestServer({
    BRUTE_FORCE_FAILURE_FACTOR: String(FACTOR),
    BRUTE_FORCE_WAIT_INCREMENT: '600',
    BRUTE_FORCE_MAX_WAIT: '900',
  });
  // Keycloak's defaults: two failures within a second lock for a minute.
  quick = await startTestServer({ BRUTE_FORCE_QUICK_LOGIN_MS: '1000' });
});
afterAll(async () => {
  await server?.close();
  await quick?.close();
});

const login = (on: TestServer, realm: string, username: string, password: string) =>
  tokenRequest(on, realm, {
    client_id: 'react-client',
    grant_type: 'password',
    username,
    password,
  });

const burst = (on: TestServer, realm: string, username: string, passwords: string[]) =>
  Promise.all(passwords.map((password) => login(on, realm, username, password)));

async function countedFailures(on: TestServer, key: string) {
  const [row] = await on.database.db
    .select()
    .from(loginFailures)
    .where(eq(loginFailures.userId, key));
  return row?.numFailures ?? 0;
}

describe('a parallel burst of guesses', () => {
  it('gets exactly as many checked as sequential requests, then the right password is refused', async () => {
    const tenant = await createTenant(server.database.db);
    const answers = await burst(
      server,
      tenant.name,
      tenant.adminEmail,
      Array.from({ length: 4 * FACTOR }, (_, i) => `wrong-${i}`),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 401));
    expect(await countedFailures(server, tenant.adminId)).toBe(FACTOR);
    expect((await login(server, tenant.name, tenant.adminEmail, tenant.password)).status).toBe(401);
  });

  it('gets no guesses at all while the account is locked', async () => {
    const tenant = await createTenant(server.database.db);
    for (let i = 0; i < FACTOR; i += 1) {
      await login(server, tenant.name, tenant.adminEmail, `wrong-${i}`);
    }
    expect(await countedFailures(server, tenant.adminId)).toBe(FACTOR);
    const guesses = Array.from({ length: 2 * FACTOR }, (_, i) => `again-${i}`);
    await burst(server, tenant.name, tenant.adminEmail, [...guesses, tenant.password]);
    expect(await countedFailures(server, tenant.adminId)).toBe(FACTOR);
    expect((await login(server, tenant.name, tenant.adminEmail, tenant.password)).status).toBe(401);
  });

  it('with the right password among the first guesses signs in and forgets the failures', async () => {
    const tenant = await createTenant(server.database.db);
    const [right] = await burst(server, tenant.name, tenant.adminEmail, [tenant.password, 'wrong']);
    // The right password counted first or second: either way within the allowance.
    expect(right!.status).toBe(200);
    expect(await countedFailures(server, tenant.adminId)).toBeLessThanOrEqual(1);
  });

  it('trips the quick-login lock after two guesses, as sequential requests do', async () => {
    const tenant = await createTenant(quick.database.db);
    await burst(
      quick,
      tenant.name,
      tenant.adminEmail,
      Array.from({ length: 10 }, (_, i) => `wrong-${i}`),
    );
    expect(await countedFailures(quick, tenant.adminId)).toBe(2);
    expect((await login(quick, tenant.name, tenant.adminEmail, tenant.password)).status).toBe(401);
  });
});

// Right passwords that arrive together (a double-click, two tabs, an integration's parallel
// requests) are not quick failures: only a failure counts toward a lock. Keycloak's default
// quick-login check (two failures within a second) is on.
describe('a parallel burst of right passwords', () => {
  const ROUNDS = 3;
  const AT_ONCE = 6;

  it('signs every one of them in through the password grant, round after round', async () => {
    const tenant = await createTenant(quick.database.db);
    for (let round = 0; round < ROUNDS; round += 1) {
      const passwords = Array.from({ length: AT_ONCE }, () => tenant.password);
      const answers = await burst(quick, tenant.name, tenant.adminEmail, passwords);
      expect(answers.map((answer) => answer.status)).toEqual(passwords.map(() => 200));
    }
    expect(await countedFailures(quick, tenant.adminId)).toBe(0);
  });

  it('signs every one of them in on the hosted sign-in page, round after round', async () => {
    const tenant = await createTenant(quick.database.db);
    const redirectUri = 'http://localhost:4000/callback';
    await insertClient(quick.database.db, tenant.tenantId, {
      clientId: 'spa',
      redirectUris: [redirectUri],
    });
    const config = await discover(quick, tenant.name, 'spa');
    /** A browser on the hosted page: the address its password step posts to. */
    async function openSignInPage(browser: CookieJar) {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
      });
      const page = await browser.fetch(url.href);
      return new URL(`${page.headers.get('location')}/login`, quick.url).href;
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      const browsers = Array.from({ length: AT_ONCE }, () => new CookieJar());
      const pages = await Promise.all(browsers.map(openSignInPage));
      const answers = await Promise.all(
        browsers.map((browser, i) =>
          browser.fetch(pages[i]!, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ username: tenant.adminEmail, password: tenant.password }),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(browsers.map(() => 200));
    }
    expect(await countedFailures(quick, tenant.adminId)).toBe(0);
  });

  it('is not held back by attempts whose process ended before settling them', async () => {
    const tenant = await createTenant(quick.database.db);
    // Three attempts left pending by a process that ended, their time to count long past.
    await quick.database.db.execute(sql`
      insert into login_failures (user_id, tenant_id, num_failures, last_failure, pending,
        pending_until)
      values (${tenant.adminId}, ${tenant.tenantId}, 0, 'epoch', 3, now() - interval '1 second')`);
    const passwords = Array.from({ length: AT_ONCE }, () => tenant.password);
    const answers = await burst(quick, tenant.name, tenant.adminEmail, passwords);
    expect(answers.map((answer) => answer.status)).toEqual(passwords.map(() => 200));
  });

  it('beside wrong ones, still gives the wrong ones no more guesses than sequential requests', async () => {
    const tenant = await createTenant(quick.database.db);
    const wrong = Array.from({ length: 10 }, (_, i) => `wrong-${i}`);
    await burst(quick, tenant.name, tenant.adminEmail, wrong);
    expect(await countedFailures(quick, tenant.adminId)).toBe(2);
    const answers = await burst(quick, tenant.name, tenant.adminEmail, [
      tenant.password,
      tenant.password,
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401]);
  });
});

describe('an unknown username', () => {
  it('is counted and locked like an account, so both cost the same work', async () => {
    const tenant = await createTenant(server.database.db);
    const nobody = 'nobody@example.test';
    for (let i = 0; i < FACTOR + 2; i += 1) {
      const answer = await login(server, tenant.name, nobody, `wrong-${i}`);
      expect(answer.status).toBe(401);
      expect((await answer.json()).error_description).toBe('Invalid user credentials');
    }
    const key = attemptKey(tenant.tenantId, undefined, nobody);
    expect(await countedFailures(server, key)).toBe(FACTOR);
  });
});
