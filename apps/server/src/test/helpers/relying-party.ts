import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Database } from '../../db/database';
import type { TestServer } from '../harness';

/** Cookies as a browser keeps them for one site; paths are ignored, which only adds cookies. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** `sent`: headers this browser adds to every request (a proxy's X-Forwarded-For, say). */
  constructor(private readonly sent: Record<string, string> = {}) {}

  async fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(this.sent)) headers.set(name, value);
    headers.set('cookie', this.header());
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.take(response);
    return response;
  }
}

/** Registers an application straight in the table, as the Applications screen would. */
export async function insertClient(
  db: Database,
  tenantId: string,
  client: {
    clientId: string;
    type?: 'public' | 'confidential';
    secretDigest?: string;
    redirectUris?: string[];
    postLogoutRedirectUris?: string[];
    grantTypes?: string[];
    /** The tenant's own application: no consent asked. */
    firstParty?: boolean;
    /** Its users' access tokens are accepted by the console API. */
    consoleApiAccess?: boolean;
  },
) {
  const list = (values: string[]) =>
    sql`array[${sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    )}]::text[]`;
  await db.execute(sql`
    insert into clients (tenant_id, client_id, name, type, secret_hash, redirect_uris,
      post_logout_redirect_uris, grant_types, first_party, console_api_access)
    values (${tenantId}, ${client.clientId}, ${client.clientId}, ${client.type ?? 'public'},
      ${client.secretDigest ?? null}, ${list(client.redirectUris ?? [])},
      ${list(client.postLogoutRedirectUris ?? [])},
      ${list(client.grantTypes ?? ['authorization_code', 'refresh_token'])},
      ${client.firstParty ?? false}, ${client.consoleApiAccess ?? false})`);
}

export const issuerOf = (server: TestServer, realm: string) => `${server.url}/realms/${realm}`;

/** Discovery through openid-client, over plain http as the test server speaks. */
export function discover(server: TestServer, realm: string, clientId: string, secret?: string) {
  return oidc.discovery(
    new URL(issuerOf(server, realm)),
    clientId,
    secret ? { client_secret: secret } : undefined,
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** How a sign-in meets the consent page of an application that is not first-party. */
export type ConsentAnswer = 'allow' | 'deny' | 'refuse-page';

/**
 * What a browser does on the hosted sign-in page, done with fetch: follow the authorization
 * request to the page, post the credentials the way the page does, answer the consent page
 * if one is shown (`consent`: allow by default; `refuse-page` fails when one is shown), and
 * follow the redirects back to the application. Answers the URL the application receives.
 */
export async function signInThroughHostedPage(
  server: TestServer,
  jar: CookieJar,
  authorizationUrl: URL,
  credentials?: { username: string; password: string },
  consent: ConsentAnswer = 'allow',
): Promise<URL> {
  let response = await jar.fetch(authorizationUrl.href);
  let location = new URL(response.headers.get('location') ?? '', server.url);
  const follow = async (answer: Response, what: string) => {
    if (answer.status !== 200) throw new Error(`${what} ${answer.status}: ${await answer.text()}`);
    const { redirectTo } = (await answer.json()) as { redirectTo: string };
    response = await jar.fetch(redirectTo);
    location = new URL(response.headers.get('location') ?? '', server.url);
  };
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  if (location.pathname.startsWith('/login-actions/') && !(await consentAsked(jar, location))) {
    if (!credentials) throw new Error(`sign-in page shown: ${location.href}`);
    await follow(await jar.fetch(`${location.href}/login`, form(credentials)), 'login');
  }
  if (location.pathname.startsWith('/login-actions/') && (await consentAsked(jar, location))) {
    if (consent === 'refuse-page') throw new Error(`consent page shown: ${location.href}`);
    await follow(
      await jar.fetch(`${location.href}/consent`, form({ decision: consent })),
      'consent',
    );
  }
  return location;
}

/** Whether the hosted page at `location` asks for consent (rather than a sign-in). */
export async function consentAsked(jar: CookieJar, location: URL): Promise<boolean> {
  if (!location.pathname.startsWith('/login-actions/')) return false;
  return (await jar.fetch(`${location.href}/consent`)).status === 200;
}
