import * as oidc from 'openid-client';
import type { MfaPolicy } from '@tc/contract/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  createTenant,
  refreshForm,
  signIn,
  tokenRequest,
  type TenantFixture,
} from '../test/fixtures';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../test/harness';
import { authorizationRequest, codeFlowTokens, REDIRECT } from '../test/helpers/conformance';
import { insertClient, signInThroughHostedPage } from '../test/helpers/relying-party';
import { enrolTotp } from '../test/helpers/second-factor-sign-in';
import { insertUser } from '../modules/users';

// A session opened before the tenant required a second factor must not outlive the policy:
// the next refresh of a user the policy now stops is refused on both refresh paths, ours
// (the password grant's sessions) and the OpenID provider's (the code flow's), so that the
// application sends the user to sign in, where the enrolment is asked for.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const SPA = 'spa';

async function freshTenant() {
  const tenant = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: SPA,
    redirectUris: [REDIRECT],
  });
  return tenant;
}

/** The admin changes the tenant's policy from a session of theirs (an access token). */
async function setMfaPolicy(accessToken: string, mfaPolicy: MfaPolicy) {
  const answer = await callApi(server, accessToken, 'PUT', '/settings/security', {
    mfaPolicy,
    passwordMinLength: 8,
    passwordRequireSpecial: true,
    passwordRefuseCommon: true,
  });
  expect(answer.status).toBe(200);
}

/** Refreshes a password-grant session: the answer's status and body. */
async function refreshOurs(tenant: TenantFixture, refreshToken: string) {
  const response = await tokenRequest(server, tenant.name, refreshForm(refreshToken));
  return {
    status: response.status,
    body: (await response.json()) as {
      refresh_token?: string;
      error?: string;
      error_description?: string;
    },
  };
}

/** Refreshes a code-flow grant through openid-client: its tokens, or the error it raised. */
async function refreshProvider(config: oidc.Configuration, refreshToken: string) {
  try {
    return { tokens: await oidc.refreshTokenGrant(config, refreshToken) };
  } catch (error) {
    return { error: error as oidc.ResponseBodyError };
  }
}

/** Both kinds of session of one user: a password grant's and a code flow's. */
async function bothSessions(tenant: TenantFixture) {
  const ours = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
  const flow = await codeFlowTokens(server, tenant, SPA);
  expect(flow.tokens.refresh_token).toBeDefined();
  return {
    ours,
    flow: { config: flow.config, token: flow.tokens.refresh_token! },
  };
}

const SECOND_FACTOR_NEEDED = /second factor/i;

describe('a refresh under a stricter second-factor policy', () => {
  it('refuses an administrator without a second factor, on both grants, once the tenant requires one', async () => {
    const tenant = await freshTenant();
    const sessions = await bothSessions(tenant);
    const ours = await refreshOurs(tenant, sessions.ours.refresh_token);
    expect(ours.status).toBe(200);
    const provider = await refreshProvider(sessions.flow.config, sessions.flow.token);
    expect(provider.error).toBeUndefined();

    await setMfaPolicy(sessions.ours.access_token, 'admins');

    const refused = await refreshOurs(tenant, ours.body.refresh_token!);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect(refused.body.error_description).toMatch(SECOND_FACTOR_NEEDED);
    const refusedByProvider = await refreshProvider(
      sessions.flow.config,
      provider.tokens!.refresh_token!,
    );
    expect(refusedByProvider.error).toBeInstanceOf(oidc.ResponseBodyError);
    expect(refusedByProvider.error!.error).toBe('invalid_grant');
    expect(refusedByProvider.error!.error_description).toMatch(SECOND_FACTOR_NEEDED);
  });

  it('still refreshes an administrator who has a second factor', async () => {
    const tenant = await freshTenant();
    const session = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    await enrolTotp(server, { id: tenant.adminId, tenantId: tenant.tenantId });
    await setMfaPolicy(session.access_token, 'admins');
    expect((await refreshOurs(tenant, session.refresh_token)).status).toBe(200);
  });

  it('still refreshes a user the policy does not cover (no write permission)', async () => {
    const tenant = await freshTenant();
    const email = `member@${tenant.domain}`;
    await server.database.db.transaction((tx) =>
      insertUser(tx, {
        tenantId: tenant.tenantId,
        email,
        firstName: 'Mia',
        lastName: 'Member',
        roleId: tenant.memberRoleId,
        password: TEST_PASSWORD,
      }),
    );
    const member = await signIn(server, tenant.name, email, TEST_PASSWORD);
    const admin = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    await setMfaPolicy(admin.access_token, 'admins');
    expect((await refreshOurs(tenant, member.refresh_token)).status).toBe(200);
  });
});

describe('a sign-in from the browser session under a stricter second-factor policy', () => {
  it('sends an administrator without a second factor to the sign-in page, not back with a code', async () => {
    const tenant = await freshTenant();
    const first = await codeFlowTokens(server, tenant, SPA);
    const admin = await signIn(server, tenant.name, tenant.adminEmail, tenant.password);
    await setMfaPolicy(admin.access_token, 'admins');

    // The browser still holds the provider's session: single sign-on would skip the page.
    const again = await authorizationRequest(first.config);
    await expect(signInThroughHostedPage(server, first.jar, again.url)).rejects.toThrow(
      /sign-in page shown/,
    );
  });
});
