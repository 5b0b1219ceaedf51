import { expect } from 'vitest';
import { currentTotpCode } from '../identity/second-factor/totp';
import { insertUser } from '../modules/users';
import { signIn } from './fixtures';
import { SoftwareAuthenticator } from './helpers/account-security';
import {
  API,
  call,
  junkBody,
  keepSecondFactorSecrets,
  secretQuery,
  type Drive,
} from './secret-route-cases';

type Case = [string, (d: Drive) => Promise<void>];

export const CHANGED_PASSWORD = 'Changed-secret-pass#58';

/** Sends `body` (expecting `status`), then the junk body (expecting a 4xx); answers the data. */
async function bodies<T = Record<string, unknown>>(
  d: Drive,
  method: string,
  path: string,
  body: unknown,
  status: number,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<T> {
  const answer = await call(d, method, path, { ...options, body });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(status);
  const junk = await call(d, method, path, { ...options, body: junkBody(d) });
  expect(junk.status, `${method} ${path} with junk: ${junk.text}`).toBeGreaterThanOrEqual(400);
  expect(junk.status, `${method} ${path} with junk: ${junk.text}`).toBeLessThan(500);
  return (answer.text ? (JSON.parse(answer.text) as { data: T }).data : undefined) as T;
}

const expectStatus = async (answer: Promise<{ status: number; text: string }>, status: number) => {
  const { status: got, text } = await answer;
  expect(got, text).toBe(status);
};

/** Another sign-in of tenant A's admin, without replacing the drive's current tokens. */
async function otherSession(d: Drive): Promise<string> {
  const tokens = await signIn(d.server, d.tenant.name, d.tenant.adminEmail, d.admin.password);
  d.secrets.set(`other session's access token ${d.secrets.size}`, tokens.access_token);
  d.secrets.set(`other session's refresh token ${d.secrets.size}`, tokens.refresh_token);
  return JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).sid;
}

const origin = (d: Drive) => ({ origin: `http://${d.host}` });
const authenticator = new SoftwareAuthenticator();

/**
 * The account page's routes and the administrator's view of a user's security. The password
 * is changed and changed back, so the cases after these sign in as before; every secret the
 * routes answer (the app's secret, recovery codes) joins the ones no log line may hold.
 */
export const accountCases: Case[] = [
  [
    `GET ${API}/account`,
    async (d) => expectStatus(call(d, 'GET', `${API}/account${secretQuery(d)}`), 200),
  ],
  [
    `PUT ${API}/account`,
    async (d) => {
      const profile = { firstName: 'Ada', lastName: 'Admin', locale: 'en', notifyNewBrowser: true };
      await bodies(d, 'PUT', `${API}/account`, profile, 200);
    },
  ],
  [
    `POST ${API}/account/password`,
    async (d) => {
      d.secrets.set('changed password', CHANGED_PASSWORD);
      const path = `${API}/account/password`;
      const wrong = { currentPassword: CHANGED_PASSWORD, newPassword: d.admin.password };
      await bodies(d, 'POST', path, wrong, 400);
      await bodies(
        d,
        'POST',
        path,
        { currentPassword: d.admin.password, newPassword: CHANGED_PASSWORD },
        200,
      );
      const back = { currentPassword: CHANGED_PASSWORD, newPassword: d.admin.password };
      await bodies(d, 'POST', path, back, 200);
    },
  ],
  [
    `POST ${API}/account/reverify/options`,
    async (d) => {
      const path = `${API}/account/reverify/options${secretQuery(d)}`;
      await expectStatus(call(d, 'POST', path), 409);
      await expectStatus(call(d, 'POST', path, { headers: origin(d) }), 200);
    },
  ],
  [
    `POST ${API}/account/reverify`,
    async (d) => {
      // A wrong password, then the right one: the session is recent again for the cases after.
      const path = `${API}/account/reverify`;
      await bodies(d, 'POST', path, { password: CHANGED_PASSWORD }, 400);
      await bodies(d, 'POST', path, { password: d.admin.password }, 200);
    },
  ],
  [
    `GET ${API}/account/mfa`,
    async (d) => expectStatus(call(d, 'GET', `${API}/account/mfa${secretQuery(d)}`), 200),
  ],
  [
    `POST ${API}/account/mfa/totp/setup`,
    async (d) => {
      const answer = await call(d, 'POST', `${API}/account/mfa/totp/setup${secretQuery(d)}`);
      expect(answer.status, answer.text).toBe(200);
      const { data } = JSON.parse(answer.text) as { data: { secret: string; otpauthUri: string } };
      d.secrets.set('authenticator app link', data.otpauthUri);
      await keepSecondFactorSecrets(d, 'account page', { secret: data.secret });
      d.ids.totpSecret = data.secret;
    },
  ],
  [
    `POST ${API}/account/mfa/totp/confirm`,
    async (d) => {
      const path = `${API}/account/mfa/totp/confirm`;
      await bodies(d, 'POST', path, { code: 'not-a-code' }, 400);
      const code = currentTotpCode(d.ids.totpSecret!);
      const data = await bodies<{ recoveryCodes: string[] }>(d, 'POST', path, { code }, 200);
      await keepSecondFactorSecrets(d, 'account page', { recoveryCodes: data.recoveryCodes });
    },
  ],
  [
    `POST ${API}/account/mfa/recovery-codes`,
    async (d) => {
      const answer = await call(d, 'POST', `${API}/account/mfa/recovery-codes${secretQuery(d)}`);
      expect(answer.status, answer.text).toBe(200);
      const { data } = JSON.parse(answer.text) as { data: { recoveryCodes: string[] } };
      expect(data.recoveryCodes).toHaveLength(10);
      const recoveryCodes = data.recoveryCodes;
      await keepSecondFactorSecrets(d, 'account page, new codes', { recoveryCodes });
    },
  ],
  [
    `DELETE ${API}/account/mfa/totp`,
    async (d) => expectStatus(call(d, 'DELETE', `${API}/account/mfa/totp`), 200),
  ],
  [
    `POST ${API}/account/passkeys/options`,
    async (d) => {
      const path = `${API}/account/passkeys/options${secretQuery(d)}`;
      await expectStatus(call(d, 'POST', path), 409);
      const answer = await call(d, 'POST', path, { headers: origin(d) });
      expect(answer.status, answer.text).toBe(200);
      const { data } = JSON.parse(answer.text) as {
        data: { options: { challenge: string; rp: { id: string } } };
      };
      d.ids.passkeyResponse = JSON.stringify(authenticator.attest(data.options, origin(d).origin));
    },
  ],
  [
    `POST ${API}/account/passkeys`,
    async (d) => {
      const response = JSON.parse(d.ids.passkeyResponse!) as Record<string, unknown>;
      const passkey = await bodies<{ id: string }>(
        d,
        'POST',
        `${API}/account/passkeys`,
        { name: 'Key', response },
        201,
      );
      d.ids.passkey = passkey.id;
    },
  ],
  [
    `PUT ${API}/account/passkeys/:id`,
    async (d) => {
      await bodies(d, 'PUT', `${API}/account/passkeys/${d.ids.passkey}`, { name: 'Renamed' }, 200);
    },
  ],
  [
    `DELETE ${API}/account/passkeys/:id`,
    async (d) => {
      await expectStatus(call(d, 'DELETE', `${API}/account/passkeys/${d.ids.passkey}`), 200);
      await expectStatus(call(d, 'DELETE', `${API}/account/passkeys/not-an-id`), 400);
    },
  ],
  [
    `GET ${API}/account/sessions`,
    async (d) => expectStatus(call(d, 'GET', `${API}/account/sessions${secretQuery(d)}`), 200),
  ],
  [
    `POST ${API}/account/sessions/:id/revoke`,
    async (d) => {
      const id = await otherSession(d);
      await expectStatus(call(d, 'POST', `${API}/account/sessions/${id}/revoke`), 200);
      await expectStatus(call(d, 'POST', `${API}/account/sessions/not-an-id/revoke`), 400);
    },
  ],
  [
    `POST ${API}/account/sessions/revoke-others`,
    async (d) => {
      await otherSession(d);
      await expectStatus(
        call(d, 'POST', `${API}/account/sessions/revoke-others${secretQuery(d)}`),
        200,
      );
    },
  ],
  [
    `GET ${API}/account/applications`,
    async (d) => expectStatus(call(d, 'GET', `${API}/account/applications${secretQuery(d)}`), 200),
  ],
  [
    `DELETE ${API}/account/applications/:id`,
    async (d) => {
      const path = `${API}/account/applications`;
      await expectStatus(call(d, 'DELETE', `${path}/${crypto.randomUUID()}${secretQuery(d)}`), 404);
      await expectStatus(call(d, 'DELETE', `${path}/not-an-id`), 400);
    },
  ],
  [
    `GET ${API}/users/:id/sessions`,
    async (d) => {
      const email = `sid@${d.tenant.domain}`;
      d.ids.member = await insertUser(d.server.database.db, {
        tenantId: d.tenant.tenantId,
        email,
        firstName: 'Sid',
        lastName: 'Session',
        roleId: d.tenant.memberRoleId,
        password: d.admin.password,
      });
      const tokens = await d.signIn(d.tenant.name, email, d.admin.password);
      d.ids.memberSession = JSON.parse(
        Buffer.from(tokens.access_token!.split('.')[1]!, 'base64url').toString(),
      ).sid;
      await expectStatus(
        call(d, 'GET', `${API}/users/${d.ids.member}/sessions${secretQuery(d)}`),
        200,
      );
      await expectStatus(call(d, 'GET', `${API}/users/not-an-id/sessions`), 400);
    },
  ],
  [
    `POST ${API}/users/:id/sessions/:sessionId/revoke`,
    async (d) => {
      const path = `${API}/users/${d.ids.member}/sessions/${d.ids.memberSession}/revoke`;
      await expectStatus(call(d, 'POST', path), 200);
      await expectStatus(
        call(d, 'POST', `${API}/users/${d.ids.member}/sessions/not-an-id/revoke`),
        400,
      );
    },
  ],
  [
    `POST ${API}/users/:id/sessions/revoke-all`,
    async (d) => {
      await expectStatus(call(d, 'POST', `${API}/users/${d.ids.member}/sessions/revoke-all`), 200);
    },
  ],
  [
    `POST ${API}/users/:id/reset-mfa`,
    async (d) => {
      await expectStatus(
        call(d, 'POST', `${API}/users/${d.ids.member}/reset-mfa${secretQuery(d)}`),
        200,
      );
    },
  ],
];
