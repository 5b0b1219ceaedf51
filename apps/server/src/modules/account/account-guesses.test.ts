import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInTenant } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { call } from '../../test/helpers/account-security';

// The account's own routes check guesses of its secrets (re-verification, a password change)
// as sign-in attempts: wrong ones lock, right ones that arrive together all go through.

let server: TestServer;
beforeAll(async () => {
  // Keycloak's defaults: two failures within a second lock for a minute.
  server = await startTestServer({ BRUTE_FORCE_QUICK_LOGIN_MS: '1000' });
});
afterAll(async () => {
  await server?.close();
});

const reverifyBurst = (token: string, passwords: string[]) =>
  Promise.all(
    passwords.map((password) => call(server, token, 'POST', '/account/reverify', { password })),
  );

describe("guesses of an account's secrets on its own routes", () => {
  it('takes right passwords that arrive together, round after round', async () => {
    const tenant = await createSignedInTenant(server);
    for (let round = 0; round < 3; round += 1) {
      const answers = await reverifyBurst(tenant.token, Array(4).fill(tenant.password));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    }
  });

  it('still locks on wrong ones that arrive together', async () => {
    const tenant = await createSignedInTenant(server);
    const wrong = `${tenant.password}x`;
    const answers = await reverifyBurst(tenant.token, [wrong, wrong, wrong]);
    const statuses = answers.map((answer) => answer.status).sort();
    // The first failure is checked; the quick second one locks, and what follows is refused.
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(2);
    expect(statuses).toContain(429);
    const right = await call(server, tenant.token, 'POST', '/account/reverify', {
      password: tenant.password,
    });
    expect(right.status).toBe(429);
  });
});
