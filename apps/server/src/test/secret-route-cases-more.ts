import { expect } from 'vitest';
import { AUTH_PAGE_PATHS } from '@tc/contract/auth-page';
import {
  API,
  call,
  COOKIE_SECRET,
  crudCases,
  junkBody,
  mailedToken,
  secretQuery,
  uploadPng,
  type Drive,
} from './secret-route-cases';
import { openIdLogoutByPost, openIdTokenGrants } from './secret-route-cases-openid';

type Case = [string, (d: Drive) => Promise<void>];

const REALM = '/realms/:realm/protocol/openid-connect';
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const expectStatus = async (answer: Promise<{ status: number; text: string }>, status: number) => {
  const { status: got, text } = await answer;
  expect(got, text).toBe(status);
};
const getWithSecrets =
  (path: string, status: number): Case[1] =>
  async (d) => {
    await expectStatus(call(d, 'GET', `${path}${secretQuery(d)}`), status);
  };
/**
 * A page a mailed link opens: a sign-in page (the server's, built or not), or a console page
 * (404 while the console is not built).
 */
export async function openPage(d: Drive, path: string) {
  const answer = await call(d, 'GET', path, { token: '', headers: { accept: 'text/html' } });
  const signInPage = Object.values(AUTH_PAGE_PATHS).some((page) => path.startsWith(`${page}?`));
  expect(answer.status, `GET ${path}`).toBe(signInPage || d.consoleFiles.built ? 200 : 404);
}
/** An account route on tenant A's host: the valid body, then the junk one (refused). */
const onHost = (d: Drive, path: string, body: unknown) =>
  call(d, 'POST', `${API}/auth/${path}`, { host: d.host, token: '', body });

export const NEW_PASSWORD = 'Reset-secret-pass#41';
// Holds neither the sign-up's name (Sam Signup) nor its address: the policy would refuse it.
export const SIGNUP_PASSWORD = 'Joined-secret-pass#77';
export const WRONG_PASSWORD = 'Wrong-secret-pass#13';
// Refused by the default policy: the sign-up's last name in it; on the common list.
const REFUSED_PASSWORD = 'Signup-secret-pass#23';
const COMMON_PASSWORD = '123456789*';

const identity: Case[] = [
  ['GET /healthz', getWithSecrets('/healthz', 200)],
  ['GET /readyz', getWithSecrets('/readyz', 200)],
  ['GET /metrics', getWithSecrets('/metrics', 404)],
  [
    `POST ${REALM}/token`,
    async (d) => {
      const path = `/realms/${d.tenant.name}/protocol/openid-connect/token`;
      const grant = { client_id: 'react-client', username: d.tenant.adminEmail };
      const password = { ...grant, grant_type: 'password' };
      await expectStatus(
        call(d, 'POST', path, form({ ...password, password: WRONG_PASSWORD })),
        401,
      );
      const tokens = await d.signIn(d.tenant.name, d.tenant.adminEmail, d.admin.password);
      const refresh = { client_id: 'react-client', grant_type: 'refresh_token' };
      await expectStatus(
        call(d, 'POST', path, form({ ...refresh, refresh_token: tokens.refresh_token! })),
        200,
      );
      await expectStatus(call(d, 'POST', path, form({ ...refresh, refresh_token: 'x' })), 400);
      await expectStatus(call(d, 'POST', path, { body: junkBody(d) }), 400);
      await openIdTokenGrants(d);
    },
  ],
  [
    `POST ${REALM}/logout`,
    async (d) => {
      const path = `/realms/${d.tenant.name}/protocol/openid-connect/logout`;
      const tokens = await d.signIn(d.tenant.name, d.tenant.adminEmail, d.admin.password);
      const logout = { client_id: 'react-client', refresh_token: tokens.refresh_token! };
      await expectStatus(call(d, 'POST', path, form(logout)), 204);
      await expectStatus(call(d, 'POST', path, { body: junkBody(d) }), 400);
      await d.signIn(d.tenant.name, d.tenant.adminEmail, d.admin.password);
      await openIdLogoutByPost(d);
    },
  ],
  [`GET ${REALM}/certs`, getWithSecrets('/realms/master/protocol/openid-connect/certs', 200)],
  [
    'GET /realms/:realm/.well-known/openid-configuration',
    getWithSecrets('/realms/master/.well-known/openid-configuration', 200),
  ],
];

const account: Case[] = [
  ['GET /api/v1.0/auth/me', getWithSecrets(`${API}/auth/me`, 200)],
  [
    `POST ${API}/auth/forgot-password`,
    async (d) => {
      await expectStatus(onHost(d, 'forgot-password', { email: d.tenant.adminEmail }), 202);
      await expectStatus(onHost(d, 'forgot-password', junkBody(d)), 400);
    },
  ],
  [
    `POST ${API}/auth/reset-password`,
    async (d) => {
      const token = await mailedToken(d, d.tenant.adminEmail);
      await openPage(d, `/newpassword?token=${token}`);
      await expectStatus(onHost(d, 'reset-password', { token, password: 'short' }), 400);
      await expectStatus(onHost(d, 'reset-password', { token, password: NEW_PASSWORD }), 200);
      await expectStatus(onHost(d, 'reset-password', junkBody(d)), 400);
      d.admin.password = NEW_PASSWORD;
      await d.signIn(d.tenant.name, d.tenant.adminEmail, NEW_PASSWORD);
    },
  ],
  [
    `POST ${API}/auth/signup`,
    async (d) => {
      const body = { fullName: 'Sam Signup', email: `sam@${d.tenant.domain}` };
      // The policy's refusal reads the password too: its name in it, then a common one.
      d.secrets.set('sign-up password holding the name', REFUSED_PASSWORD);
      const refused = await onHost(d, 'signup', { ...body, password: REFUSED_PASSWORD });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain('password.contains_personal');
      d.secrets.set('common sign-up password', COMMON_PASSWORD);
      const common = await onHost(d, 'signup', { ...body, password: COMMON_PASSWORD });
      expect(common.status, common.text).toBe(400);
      expect(common.text).toContain('password.common');
      await expectStatus(onHost(d, 'signup', { ...body, password: SIGNUP_PASSWORD }), 202);
      await expectStatus(onHost(d, 'signup', junkBody(d)), 400);
    },
  ],
  [
    `POST ${API}/auth/verify-email`,
    async (d) => {
      const token = await mailedToken(d, `sam@${d.tenant.domain}`);
      await openPage(d, `/verifyemail?token=${token}`);
      await expectStatus(onHost(d, 'verify-email', { token }), 200);
      await expectStatus(onHost(d, 'verify-email', { token }), 400);
      await expectStatus(onHost(d, 'verify-email', junkBody(d)), 400);
    },
  ],
  [
    `POST ${API}/auth/google/nonce`,
    async (d) => {
      await expectStatus(onHost(d, 'google/nonce', undefined), 200);
    },
  ],
  [
    `POST ${API}/auth/google`,
    async (d) => {
      // As the sign-in screen does: a nonce for this browser, which the credential carries.
      const issued = await call(d, 'POST', `${API}/auth/google/nonce`, { host: d.host, token: '' });
      const browser = [issued.headers['set-cookie'] ?? []].flat()[0]!.split(';')[0]!;
      const { nonce } = JSON.parse(issued.text) as { nonce: string };
      const fromBrowser = (body: unknown) =>
        call(d, 'POST', `${API}/auth/google`, {
          host: d.host,
          token: '',
          body,
          headers: { cookie: `tc_session=${COOKIE_SECRET}; ${browser}` },
        });
      const credential = await d.issuer.idToken({ email: d.tenant.adminEmail, name: 'Ada', nonce });
      const forged = await d.issuer.idToken({ email: d.tenant.adminEmail }, { forged: true });
      d.secrets.set('Google credential', credential);
      d.secrets.set('forged Google credential', forged);
      await expectStatus(fromBrowser({ credential }), 200);
      await expectStatus(fromBrowser({ credential }), 401);
      await expectStatus(onHost(d, 'google', { credential: forged }), 401);
      await expectStatus(onHost(d, 'google', junkBody(d)), 400);
    },
  ],
];

const superAdmin = (d: Drive) => d.superToken;
const tenants: Case[] = [
  [
    `GET ${API}/tenants/identify`,
    async (d) => {
      await expectStatus(call(d, 'GET', `${API}/tenants/identify${secretQuery(d)}`), 200);
      const headers = { 'tenant-id': d.admin.refresh };
      await expectStatus(call(d, 'GET', `${API}/tenants/identify`, { headers }), 404);
    },
  ],
  ...crudCases(
    'tenants',
    (d) => ({
      create: { name: `logged${d.tenant.name}`, domain: `logged.${d.tenant.domain}` },
      update: (id) => ({ id, name: `logged${d.tenant.name}`, domain: `l.${d.tenant.domain}` }),
    }),
    'DELETE',
    superAdmin,
  ),
];
// The logo routes run before the tenant is deleted.
tenants.splice(-1, 0, [
  `PUT ${API}/tenants/:id/logo`,
  async (d) => {
    await expectStatus(uploadPng(d, `${API}/tenants/${d.ids.tenants}/logo`, d.superToken), 200);
    const path = `${API}/tenants/${d.ids.tenants}/logo`;
    await expectStatus(call(d, 'PUT', path, { token: d.superToken, body: junkBody(d) }), 415);
  },
]);
tenants.splice(-1, 0, [
  `DELETE ${API}/tenants/:id/logo`,
  async (d) => {
    const path = `${API}/tenants/${d.ids.tenants}/logo`;
    await expectStatus(call(d, 'DELETE', path, { token: d.superToken }), 200);
  },
]);

const users = crudCases('users', (d) => {
  const user = { firstName: 'Ivy', lastName: 'Invited', email: `ivy@${d.tenant.domain}` };
  return {
    create: { ...user, roleId: d.tenant.memberRoleId },
    update: (id) => ({ ...user, id, lastName: 'Renamed', roleId: d.tenant.memberRoleId }),
  };
});
users.splice(-1, 0, [
  `POST ${API}/users/:id/resend-invitation`,
  async (d) => {
    await mailedToken(d, `ivy@${d.tenant.domain}`);
    const path = `${API}/users/${d.ids.users}/resend-invitation`;
    await expectStatus(call(d, 'POST', path, { body: junkBody(d) }), 202);
    await mailedToken(d, `ivy@${d.tenant.domain}`);
  },
]);

const roles = crudCases('roles', () => ({
  create: { name: 'Logged role', permissionIds: [] },
  update: (id) => ({ id, name: 'Logged role 2' }),
}));
const permissions = crudCases('permissions', (d) => ({
  create: { name: 'logs:read', roleIds: [d.tenant.adminRoleId] },
  update: (id) => ({ id, name: 'logs:write', roleIds: [d.tenant.adminRoleId] }),
}));
const projects = crudCases('projects', () => ({
  create: { name: 'Logged project', projectNumber: 'L-1', budget: '1.00' },
  update: (id) => ({ id, name: 'Logged project 2', projectNumber: 'L-1', budget: '2.00' }),
}));
projects.splice(
  -1,
  0,
  [
    `PUT ${API}/projects/:id/logo`,
    async (d) => {
      const logo = await uploadPng(d, `${API}/projects/${d.ids.projects}/logo`, d.admin.access);
      expect(logo.status).toBe(200);
      d.ids.file = (JSON.parse(logo.text) as { data: { logoUrl: string } }).data.logoUrl;
    },
  ],
  [
    `GET ${API}/files/:id`,
    async (d) => {
      await expectStatus(call(d, 'GET', `${d.ids.file}${secretQuery(d)}`), 200);
      await expectStatus(call(d, 'GET', `${API}/files/not-an-id`), 404);
    },
  ],
  [
    `DELETE ${API}/projects/:id/logo`,
    async (d) => {
      const path = `${API}/projects/${d.ids.projects}/logo`;
      await expectStatus(call(d, 'DELETE', path), 200);
    },
  ],
);

/** The API's documentation (Swagger UI and the OpenAPI document), with what each answers. */
const docs: Case[] = (
  [
    ['/api/docs', 200],
    ['/api/docs/', 200],
    // Swagger UI sends its page's address on to its own route.
    ['/api/docs/static/index.html', 302],
    ['/api/docs/static/swagger-initializer.js', 200],
    ['/api/docs/static/*', 200],
    ['/api/docs/json', 200],
    ['/api/docs/yaml', 200],
    ['/api/docs/openapi.json', 200],
  ] as const
).map(([route, status]) => [
  `GET ${route}`,
  async (d) => {
    const path = route.replace('*', 'swagger-ui.css');
    const answer = await call(d, 'GET', `${path}${secretQuery(d)}`);
    expect(answer.status, path).toBe(status);
  },
]);

/** Health, the provider's password and refresh grants, its keys and metadata, the API docs. */
export const identityCases: Case[] = [...identity, ...docs];
/** The public account routes on the tenant's host: reset, sign-up, verification, Google. */
export const accountFlowCases: Case[] = account;
/** The tenant data's entities (and tenants themselves, as the super administrator). */
export const entityCases: Case[] = [...tenants, ...users, ...roles, ...permissions, ...projects];
