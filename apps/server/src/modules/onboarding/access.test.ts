import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Onboarding } from '@tc/contract/onboarding';
import { MASTER_REALM } from '@tc/contract/permissions';
import { DEMO_ADMIN, seedDemoTenant } from '../../bootstrap/seed-demo';
import { api, callApi, createSignedInTenant, signIn } from '../../test/fixtures';
import {
  startTestServer,
  SUPER_ADMIN_PASSWORD,
  TEST_PASSWORD,
  type TestServer,
} from '../../test/harness';
import { insertUser } from '../users';

let server: TestServer;
let tenant: Awaited<ReturnType<typeof createSignedInTenant>>;
let memberToken: string;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createSignedInTenant(server);
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
  memberToken = (await signIn(server, tenant.name, email, TEST_PASSWORD)).access_token;
});
afterAll(() => server?.close());

describe('onboarding access', () => {
  it('is documented in the OpenAPI document', async () => {
    const document = await (await fetch(`${server.url}/api/docs/openapi.json`)).json();
    expect(Object.keys(document.paths['/api/v1.0/onboarding'])).toEqual(
      expect.arrayContaining(['get', 'put']),
    );
    expect(document.paths).toHaveProperty('/api/v1.0/onboarding/skip');
    expect(document.components.schemas).toHaveProperty('OnboardingUpdate');
  });

  it('answers 401 without a token', async () => {
    expect((await api(server, '/onboarding')).status).toBe(401);
    const put = await api(server, '/onboarding', undefined, {
      method: 'PUT',
      body: JSON.stringify({ step: 'complete' }),
    });
    expect(put.status).toBe(401);
    expect((await api(server, '/onboarding/skip', undefined, { method: 'POST' })).status).toBe(401);
  });

  it('answers 403 to a super administrator', async () => {
    const { access_token } = await signIn(
      server,
      MASTER_REALM,
      server.config.bootstrapAdminEmail,
      SUPER_ADMIN_PASSWORD,
    );
    expect((await callApi(server, access_token, 'GET', '/onboarding')).status).toBe(403);
    const put = await callApi(server, access_token, 'PUT', '/onboarding', { step: 'complete' });
    expect(put.status).toBe(403);
  });

  it('shows a member the progress but does not open the wizard or let them write', async () => {
    const { status, body } = await callApi<Onboarding>(server, memberToken, 'GET', '/onboarding');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ completed: false, shouldOpen: false });
    const put = await callApi(server, memberToken, 'PUT', '/onboarding', { step: 'complete' });
    expect(put.status).toBe(403);
    const skip = await callApi(server, memberToken, 'POST', '/onboarding/skip');
    expect(skip.status).toBe(403);
    const admin = await callApi<Onboarding>(server, tenant.token, 'GET', '/onboarding');
    expect(admin.body.data).toMatchObject({ completed: false, skipped: false, shouldOpen: true });
  });

  it('counts the demo tenant as set up', async () => {
    await server.database.db.transaction((tx) => seedDemoTenant(tx));
    const { access_token } = await signIn(server, 'demo', DEMO_ADMIN.email, DEMO_ADMIN.password);
    const { body } = await callApi<Onboarding>(server, access_token, 'GET', '/onboarding');
    expect(body.data).toMatchObject({ step: 'complete', completed: true, shouldOpen: false });
  });
});
