import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTenant, type TenantFixture } from '../../test/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import {
  REDIRECT,
  codeFlowTokens,
  postForm,
  signedInCallback,
} from '../../test/helpers/conformance';
import { discover, insertClient } from '../../test/helpers/relying-party';

// The token endpoint's refusals of codes and refresh tokens, after the OpenID Foundation's
// Basic OP conformance modules where one exists. Every refusal is `invalid_grant` (RFC 6749
// §5.2): the code or refresh token is not valid for this request, whatever the reason.

const OTHER_REDIRECT = 'http://localhost:4000/other-callback';
let server: TestServer;
let tenant: TenantFixture;
let other: TenantFixture;

beforeAll(async () => {
  server = await startTestServer();
  tenant = await createTenant(server.database.db);
  other = await createTenant(server.database.db);
  for (const clientId of ['spa', 'spa2']) {
    await insertClient(server.database.db, tenant.tenantId, {
      clientId,
      redirectUris: [REDIRECT, OTHER_REDIRECT],
      // Allowed the console API, so that a token that must stop there is seen to stop.
      consoleApiAccess: true,
    });
  }
  // The same client id in another tenant: a code must not cross realms even so.
  await insertClient(server.database.db, other.tenantId, {
    clientId: 'spa',
    redirectUris: [REDIRECT],
  });
});
afterAll(() => server?.close());

/** A code-for-tokens request as the client sends it, with any part replaced. */
function exchange(
  code: string,
  verifier: string,
  overrides: Record<string, string> = {},
  realm = tenant.name,
) {
  return postForm(server, realm, '/token', {
    grant_type: 'authorization_code',
    client_id: 'spa',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    ...overrides,
  });
}

async function expectInvalidGrant(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get('cache-control')).toContain('no-store');
  expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
}

const freshCode = async () => {
  const { code, request } = await signedInCallback(server, tenant, 'spa');
  return { code, verifier: request.verifier };
};

/** The grant of these tokens has ended: its access token stops at the API, its refresh dies. */
async function expectGrantEnded(tokens: { access_token: string; refresh_token: string }) {
  expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(401);
  await expectInvalidGrant(
    await postForm(server, tenant.name, '/token', {
      grant_type: 'refresh_token',
      client_id: 'spa',
      refresh_token: tokens.refresh_token,
    }),
  );
}

/**
 * Of the same code or refresh token sent many times at once, one may be answered (unless a
 * replay ended the grant before it finished), every other is refused as a replay, and the
 * tokens of the one answered have died with the grant.
 */
async function expectOneAtMostThenDead(answers: Response[]) {
  const granted = answers.filter((answer) => answer.status === 200);
  expect(granted.length).toBeLessThanOrEqual(1);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    await expectInvalidGrant(refused);
  }
  if (granted.length === 0) return;
  const tokens = (await granted[0]!.json()) as { access_token: string; refresh_token: string };
  await expectGrantEnded(tokens);
}

describe('authorization codes', () => {
  it('oidcc-codereuse: a second use is refused and ends the tokens of the first', async () => {
    const { code, verifier } = await freshCode();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    expect((await api(server, '/auth/me', tokens.access_token)).status).toBe(200);

    await expectInvalidGrant(await exchange(code, verifier));
    // The replay revoked the grant (RFC 6749 §4.1.2): its access and refresh tokens died.
    await expectGrantEnded(tokens);
  });

  it('a code presented many times at once is exchanged at most once, and the replays end it', async () => {
    const { code, verifier } = await freshCode();
    const answers = await Promise.all(Array.from({ length: 8 }, () => exchange(code, verifier)));
    await expectOneAtMostThenDead(answers);
  });

  it('a code presented by another client is refused', async () => {
    const { code, verifier } = await freshCode();
    await expectInvalidGrant(await exchange(code, verifier, { client_id: 'spa2' }));
  });

  it('a wrong code_verifier is refused', async () => {
    const { code } = await freshCode();
    await expectInvalidGrant(await exchange(code, oidc.randomPKCECodeVerifier()));
  });

  it('the code_verifier of another code is refused', async () => {
    const first = await freshCode();
    const second = await freshCode();
    await expectInvalidGrant(await exchange(first.code, second.verifier));
    // Each code still works with its own verifier: the refusal was the pairing.
    expect((await exchange(second.code, second.verifier)).status).toBe(200);
  });

  it('a redirect_uri other than the authorization request’s is refused', async () => {
    const { code, verifier } = await freshCode();
    await expectInvalidGrant(await exchange(code, verifier, { redirect_uri: OTHER_REDIRECT }));
  });

  it('a code holding a NUL is refused as a bad request, not a server error', async () => {
    const response = await postForm(server, tenant.name, '/token', {
      grant_type: 'authorization_code',
      client_id: 'spa',
      code: '\u0000',
      redirect_uri: REDIRECT,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('an expired code is refused', async () => {
    const { code, verifier } = await freshCode();
    // Codes live 60 seconds; the stored row is aged instead of waiting.
    const aged = await server.database.db.execute(sql`
      update oidc_payloads set expires_at = now() - interval '1 second'
      where model = 'AuthorizationCode' and id = ${code} returning id`);
    expect((aged as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    await expectInvalidGrant(await exchange(code, verifier));
  });

  it('a code of one realm is refused at another, by a client of the same id', async () => {
    const { code, verifier } = await freshCode();
    await expectInvalidGrant(await exchange(code, verifier, {}, other.name));
    expect((await exchange(code, verifier)).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('are bound to the client they were issued to', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa');
    const stolen = await postForm(server, tenant.name, '/token', {
      grant_type: 'refresh_token',
      client_id: 'spa2',
      refresh_token: tokens.refresh_token!,
    });
    await expectInvalidGrant(stolen);
    // The owner can still use it.
    const config = await discover(server, tenant.name, 'spa');
    expect((await oidc.refreshTokenGrant(config, tokens.refresh_token!)).access_token).toBeTruthy();
  });

  it('reuse of a rotated refresh token is refused and ends the grant', async () => {
    const { tokens, config } = await codeFlowTokens(server, tenant, 'spa');
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);

    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // A replay means the token leaked: the newest refresh token and the access tokens die too.
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await api(server, '/auth/me', rotated.access_token)).status).toBe(401);
  });

  it('presented many times at once, it rotates at most once, and the replays end the grant', async () => {
    const { tokens } = await codeFlowTokens(server, tenant, 'spa');
    const refresh = () =>
      postForm(server, tenant.name, '/token', {
        grant_type: 'refresh_token',
        client_id: 'spa',
        refresh_token: tokens.refresh_token!,
      });
    const answers = await Promise.all(Array.from({ length: 8 }, refresh));
    await expectOneAtMostThenDead(answers);
  });
});
