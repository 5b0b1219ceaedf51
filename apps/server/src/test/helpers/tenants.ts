import { api, signIn, uniqueName } from '../fixtures';
import { SUPER_ADMIN_PASSWORD, type TestServer } from '../harness';

/** A super administrator's access token (master realm, seeded by the harness). */
export async function superAdminToken(server: TestServer): Promise<string> {
  const tokens = await signIn(server, 'master', 'admin@example.com', SUPER_ADMIN_PASSWORD);
  return tokens.access_token;
}

export function sendJson(
  server: TestServer,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
) {
  return api(server, path, token, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Creates a tenant over HTTP and answers its row. */
export async function createTenantViaApi(
  server: TestServer,
  token: string,
  extra: Record<string, unknown> = {},
) {
  const name = uniqueName();
  const response = await sendJson(server, token, 'POST', '/tenants/create', {
    id: null,
    name,
    domain: `${name}.example.test`,
    ...extra,
  });
  if (response.status !== 201) {
    throw new Error(`create failed: ${response.status} ${await response.text()}`);
  }
  return (await response.json()).data as {
    id: string;
    name: string;
    domain: string;
    logoUrl: string | null;
    allowSignup: boolean;
  };
}
