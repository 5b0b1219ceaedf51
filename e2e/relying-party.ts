import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { apiAs } from './api-client';
import type { E2eEnv } from './env';

/**
 * A tenant's own applications sign their users in through the identity provider's hosted page,
 * with openid-client as the relying party: a real browser on the sign-in page, real protocol
 * messages on both sides. The applications' pages are one plain local server; the browser's
 * arrival there is what the tests wait for.
 */
let appServer: Server;
let APP_ORIGIN = '';

/** Starts the applications' pages; a spec calls it in beforeAll and the answer in afterAll. */
export async function startApplications(): Promise<() => Promise<void>> {
  appServer = createServer((_request, response) => response.end('the application'));
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  APP_ORIGIN = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  return () => new Promise<void>((resolve) => appServer.close(() => resolve()));
}

export interface RegisteredApp {
  clientId: string;
  config: oidc.Configuration;
  callback: string;
  signedOut: string;
}

/**
 * Registers an application of the demo tenant: a third party by default, whose first sign-in
 * of a user asks for consent; `firstParty` for one of the tenant's own, which never asks.
 */
export async function registerApp(
  env: E2eEnv,
  { firstParty = false }: { firstParty?: boolean } = {},
): Promise<RegisteredApp> {
  const clientId = `app-${randomBytes(4).toString('hex')}`;
  const callback = `${APP_ORIGIN}/${clientId}/callback`;
  const signedOut = `${APP_ORIGIN}/${clientId}/signed-out`;
  const { api } = apiAs(env, 'demo', env.demoAdmin);
  await api('POST', '/clients/create', {
    clientId,
    name: `Portal ${clientId}`,
    type: 'public',
    redirectUris: [callback],
    postLogoutRedirectUris: [signedOut],
    webOrigins: [],
    grantTypes: ['authorization_code', 'refresh_token'],
    serviceRoleIds: [],
    idTokenSignedResponseAlg: 'RS256',
    firstParty,
  });
  const config = await oidc.discovery(
    new URL(`${env.adminUrl}/realms/demo`),
    clientId,
    undefined,
    oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
  return { clientId, config, callback, signedOut };
}

/** The consent page of a third-party application: its question, and Allow and Deny. */
export function consentPage(page: Page) {
  return {
    heading: page.getByRole('heading', { level: 1 }),
    allow: page.getByRole('button', { name: 'Allow' }),
    deny: page.getByRole('button', { name: 'Deny' }),
  };
}

export async function startSignIn(page: Page, app: RegisteredApp) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(app.config, {
    redirect_uri: app.callback,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  await page.goto(url.href);
  // The application's page has loaded: the browser is done with the identity provider.
  const arrival = async () => {
    await page.waitForURL((address) => address.href.startsWith(app.callback));
    return new URL(page.url());
  };
  return { verifier, state, nonce, arrival };
}
