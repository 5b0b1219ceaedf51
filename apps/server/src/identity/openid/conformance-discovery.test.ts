import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  REDIRECT,
  authorizationRequest,
  claimsOf,
  codeFlowTokens,
} from '../../test/helpers/conformance';
import { CookieJar, discover, insertClient } from '../../test/helpers/relying-party';

// The realm's discovery document (OpenID Connect Discovery 1.0) lists what is true: every
// endpoint it names answers, and what it says is supported is, and nothing else is offered.

let server: TestServer;
let tenant: TenantFixture;
let metadata: oidc.ServerMetadata;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  await insertClient(server.database.db, tenant.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
  });
  metadata = (await discover(server, tenant.name, 'spa')).serverMetadata();
});
afterAll(() => server?.close());

describe('discovery', () => {
  it('oidcc-discovery-endpoint-verification: every endpoint it names answers, none is missing (404)', async () => {
    // Each is called the way it is used: the token-side endpoints take POSTed forms.
    const posted = new Set(['token_endpoint', 'revocation_endpoint', 'introspection_endpoint']);
    const endpoints = Object.entries(metadata).filter(
      ([name, value]) => (name.endsWith('_endpoint') || name === 'jwks_uri') && value,
    );
    expect(endpoints.map(([name]) => name).sort()).toEqual([
      'authorization_endpoint',
      'end_session_endpoint',
      'introspection_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]);
    for (const [name, url] of endpoints) {
      const response = await fetch(String(url), {
        method: posted.has(name) ? 'POST' : 'GET',
        redirect: 'manual',
        ...(posted.has(name)
          ? {
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'client_id=spa',
            }
          : {}),
      });
      expect(response.status, name).not.toBe(404);
      expect(response.status, name).toBeLessThan(500);
      expect(String(url).startsWith(`${metadata.issuer}/`), name).toBe(true);
    }
  });

  it('PKCE with S256 only, and the iss authorization response parameter (RFC 9207)', () => {
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
    expect(metadata.response_types_supported).toEqual(['code']);
  });

  it('each response mode it lists is served', async () => {
    const jar = new CookieJar();
    const config = await discover(server, tenant.name, 'spa');
    await codeFlowTokens(server, tenant, 'spa', { jar });
    expect(metadata.response_modes_supported).toEqual(['query', 'fragment', 'form_post']);
    for (const mode of metadata.response_modes_supported!) {
      const request = await authorizationRequest(config, { response_mode: mode });
      const response = await jar.fetch(request.url.href);
      if (mode === 'form_post') {
        expect(response.status, mode).toBe(200);
        const html = await response.text();
        expect(html, mode).toContain(`action="${REDIRECT}"`);
        expect(html, mode).toContain('name="code"');
      } else {
        const location = new URL(response.headers.get('location')!);
        const params =
          mode === 'fragment' ? new URLSearchParams(location.hash.slice(1)) : location.searchParams;
        expect(params.get('code'), mode).toBeTruthy();
        expect(params.get('state'), mode).toBe(request.state);
      }
    }
  });

  it('claims_supported names every claim the ID token and userinfo carry', async () => {
    const { config, tokens } = await codeFlowTokens(server, tenant, 'spa');
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tenant.adminId);
    const carried = new Set([...Object.keys(info), ...Object.keys(claimsOf(tokens.id_token!))]);
    for (const claim of carried) expect(metadata.claims_supported, claim).toContain(claim);
  });
});
