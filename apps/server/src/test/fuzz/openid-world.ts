import { createHash, randomBytes } from 'node:crypto';
import { CookieJar } from '../helpers/relying-party';

/**
 * What fuzzing the OpenID provider's routes starts from: two applications of the code flow,
 * and the browser state of sign-ins taken to each step, so that near-valid requests get past
 * the first checks: interactions waiting for the sign-in page, signed-in authorizations
 * waiting to resume, unused codes with their verifiers, and tokens with their browser session.
 */
export interface OpenIdWorld {
  /** A public application (PKCE) and a confidential one, with its secret. */
  spa: string;
  web: { clientId: string; secret: string };
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** `/login-actions/{realm}/{uid}` of an interaction, and the browser's cookies. */
  interactions: { uid: string; cookie: string }[];
  /** The uid of a signed-in authorization (`…/auth/{uid}` resumes it), and the cookies. */
  resumes: { uid: string; cookie: string }[];
  codes: { code: string; verifier: string }[];
  /** The cookies of a browser session, the ID token of its sign-in, its sign-out form's xsrf. */
  sessions: { cookie: string; idToken: string; xsrf: string }[];
  accessTokens: string[];
  refreshTokens: string[];
}

const REDIRECT = 'http://localhost:4000/callback';
const BYE = 'http://localhost:4000/bye';

type AsAdmin = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export async function prepareOpenIdWorld(options: {
  url: string;
  realm: string;
  user: { email: string; password: string };
  asAdmin: AsAdmin;
}): Promise<OpenIdWorld> {
  const { url, realm, user, asAdmin } = options;
  const base = `${url}/realms/${realm}/protocol/openid-connect`;
  const spa = 'fuzz-spa';
  await asAdmin('POST', '/clients/create', {
    clientId: spa,
    name: 'Fuzz SPA',
    type: 'public',
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: [BYE],
    grantTypes: ['authorization_code', 'refresh_token'],
  });
  const web = await asAdmin<{ clientId: string; clientSecret: string }>('POST', '/clients/create', {
    clientId: 'fuzz-web',
    name: 'Fuzz web application',
    type: 'confidential',
    redirectUris: [REDIRECT],
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  });

  /** An authorization request of the SPA; answers the uid of its interaction. */
  async function authorize(jar: CookieJar) {
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      client_id: spa,
      response_type: 'code',
      redirect_uri: REDIRECT,
      scope: 'openid profile email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'fuzz',
      nonce: 'fuzz',
    });
    const answer = await jar.fetch(`${base}/auth?${query}`);
    const page = answer.headers.get('location') ?? '';
    if (answer.status !== 303) throw new Error(`authorization request: ${answer.status}`);
    return { uid: page.split('/').pop()!, verifier };
  }
  async function logIn(jar: CookieJar, uid: string) {
    const answer = await jar.fetch(`${url}/login-actions/${realm}/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: user.email, password: user.password }),
    });
    if (answer.status !== 200) throw new Error(`sign-in page: ${answer.status}`);
  }
  async function code(jar: CookieJar) {
    const { uid, verifier } = await authorize(jar);
    await logIn(jar, uid);
    let answer = await jar.fetch(`${base}/auth/${uid}`);
    let callback = new URL(answer.headers.get('location') ?? '', url);
    // The SPA is a third party: the user's first sign-in allows it on the consent page.
    if (callback.pathname.startsWith('/login-actions/')) {
      const allowed = await jar.fetch(`${callback.href}/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ decision: 'allow' }),
      });
      const { redirectTo } = (await allowed.json()) as { redirectTo: string };
      answer = await jar.fetch(redirectTo);
      callback = new URL(answer.headers.get('location') ?? '', url);
    }
    const value = callback.searchParams.get('code');
    if (!value) throw new Error(`no code: ${answer.status} ${callback.href}`);
    return { code: value, verifier };
  }

  const world: OpenIdWorld = {
    spa,
    web: { clientId: web.clientId, secret: web.clientSecret },
    redirectUri: REDIRECT,
    postLogoutRedirectUri: BYE,
    interactions: [],
    resumes: [],
    codes: [],
    sessions: [],
    accessTokens: [],
    refreshTokens: [],
  };
  for (let i = 0; i < 3; i += 1) {
    const waiting = new CookieJar();
    world.interactions.push({ uid: (await authorize(waiting)).uid, cookie: waiting.header() });
    const signedIn = new CookieJar();
    const { uid } = await authorize(signedIn);
    await logIn(signedIn, uid);
    world.resumes.push({ uid, cookie: signedIn.header() });
    world.codes.push(await code(new CookieJar()));

    const browser = new CookieJar();
    const exchange = await code(browser);
    const answer = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: spa,
        code: exchange.code,
        code_verifier: exchange.verifier,
        redirect_uri: REDIRECT,
      }),
    });
    if (answer.status !== 200) throw new Error(`code exchange: ${answer.status}`);
    const tokens = (await answer.json()) as Record<string, string>;
    const signOut = await (await browser.fetch(`${base}/logout`)).text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(signOut)?.[1] ?? '';
    world.sessions.push({ cookie: browser.header(), idToken: tokens.id_token!, xsrf });
    world.accessTokens.push(tokens.access_token!);
    world.refreshTokens.push(tokens.refresh_token!);
  }
  return world;
}
