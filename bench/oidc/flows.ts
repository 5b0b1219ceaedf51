/**
 * What one virtual browser or client does, request by request: a complete authorization code
 * sign-in on the hosted page, a password grant, a refresh. Each checks every answer it gets
 * and throws a `Failure` naming the step at the first unexpected one.
 */
import * as oidc from 'openid-client';
import { type Answer, Connection, CookieJar, locationOf } from './http';
import type { BenchUser } from './seed';
import {
  CONSOLE_CLIENT,
  FORM,
  PASSWORD,
  REDIRECT_URI,
  SCOPE,
  SPA_CLIENT,
  tokenPath,
} from './settings';

export class Failure extends Error {
  constructor(
    readonly step: string,
    readonly answer: Answer | undefined,
    detail = '',
  ) {
    super(
      `${step}: ${answer ? `${answer.status} ${answer.body.slice(0, 160)}` : ''}${detail}`.trim(),
    );
  }
}

/** The requests of a code flow sign-in, each told to an observer as its answer arrives. */
export const CODE_FLOW_STEPS = ['authorize', 'login', 'resume', 'token'] as const;
export type Step = (typeof CODE_FLOW_STEPS)[number];
export type OnStep = (step: Step) => void;

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

function tokensOf(step: string, answer: Answer, needIdToken = false): Tokens {
  if (answer.status !== 200) throw new Failure(step, answer);
  let tokens: Partial<Tokens>;
  try {
    tokens = JSON.parse(answer.body) as Partial<Tokens>;
  } catch {
    throw new Failure(step, answer, ' (not JSON)');
  }
  if (!tokens.access_token || !tokens.refresh_token || (needIdToken && !tokens.id_token)) {
    throw new Failure(step, answer, ' (tokens missing)');
  }
  return tokens as Tokens;
}

/** One virtual browser: its connection, and its cookies, cleared before every sign-in. */
export class Browser {
  readonly jar = new CookieJar();
  readonly connection: Connection;

  constructor(readonly baseUrl: string) {
    this.connection = new Connection(baseUrl);
  }

  async get(path: string) {
    const answer = await this.connection.send('GET', path, this.jar.header());
    this.jar.take(answer);
    return answer;
  }

  async post(path: string, form: Record<string, string>) {
    const body = new URLSearchParams(form).toString();
    const answer = await this.connection.send(
      'POST',
      path,
      { ...FORM, ...this.jar.header() },
      body,
    );
    this.jar.take(answer);
    return answer;
  }
}

export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** The application's authorization request: PKCE (S256), state and nonce, by openid-client. */
export async function authorizationRequest(
  config: oidc.Configuration,
): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

/**
 * The browser's part of a sign-in with no session at the provider: the authorization request
 * → 303 to the hosted sign-in page → its password step (`…/login`, the form the page posts)
 * → the provider resumes the request → 303 to the redirect URI. Answers that URL, with the
 * code. The page's own HTML and scripts are static files and are not fetched.
 */
export async function signInForCode(
  browser: Browser,
  request: AuthorizationRequest,
  user: BenchUser,
  lap: OnStep = () => undefined,
): Promise<URL> {
  browser.jar.clear();
  const authorize = await browser.get(request.url.pathname + request.url.search);
  const page = locationOf(authorize, browser.baseUrl);
  if (authorize.status !== 303 || !page?.pathname.startsWith(`/login-actions/${user.realm}/`)) {
    throw new Failure('authorize', authorize);
  }
  lap('authorize');

  const login = await browser.post(`${page.pathname}/login`, {
    username: user.email,
    password: PASSWORD,
  });
  if (login.status !== 200) throw new Failure('login', login);
  const { redirectTo } = JSON.parse(login.body) as { redirectTo?: string };
  if (!redirectTo) throw new Failure('login', login, ' (no redirectTo)');
  lap('login');

  const resumeUrl = new URL(redirectTo, browser.baseUrl);
  const resume = await browser.get(resumeUrl.pathname + resumeUrl.search);
  const callback = locationOf(resume, browser.baseUrl);
  if (
    resume.status !== 303 ||
    !callback ||
    `${callback.origin}${callback.pathname}` !== REDIRECT_URI ||
    callback.searchParams.get('state') !== request.state ||
    !callback.searchParams.get('code')
  ) {
    throw new Failure('resume', resume, ` → ${resume.headers.location ?? 'nowhere'}`);
  }
  lap('resume');
  return callback;
}

/**
 * A complete authorization code sign-in of `user` to the realm's single-page application:
 * the browser's part, then the application exchanges the code with its PKCE verifier (a
 * public client: no secret). The ID token is checked in full once before the runs
 * (`checkFlows`); here its presence is.
 */
export async function codeFlowSignIn(
  browser: Browser,
  config: oidc.Configuration,
  user: BenchUser,
  lap?: OnStep,
): Promise<Tokens> {
  const request = await authorizationRequest(config);
  const callback = await signInForCode(browser, request, user, lap);
  const exchange = await browser.post(tokenPath(user.realm), {
    grant_type: 'authorization_code',
    client_id: SPA_CLIENT,
    code: callback.searchParams.get('code')!,
    redirect_uri: REDIRECT_URI,
    code_verifier: request.verifier,
  });
  const tokens = tokensOf('token', exchange, true);
  lap?.('token');
  return tokens;
}

/** The console's password grant for `user`: ours, one argon2id verification like the login step. */
export async function passwordSignIn(browser: Browser, user: BenchUser): Promise<Tokens> {
  const answer = await browser.connection.send(
    'POST',
    tokenPath(user.realm),
    FORM,
    new URLSearchParams({
      grant_type: 'password',
      client_id: CONSOLE_CLIENT,
      username: user.email,
      password: PASSWORD,
    }).toString(),
  );
  return tokensOf('password', answer);
}

/** One refresh; the answer's refresh token is the next one of the chain (rotation). */
export async function refresh(
  connection: Connection,
  realm: string,
  clientId: string,
  refreshToken: string,
): Promise<Answer> {
  return connection.send(
    'POST',
    tokenPath(realm),
    FORM,
    new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: refreshToken,
    }).toString(),
  );
}

export const nextRefreshToken = (answer: Answer) => tokensOf('refresh', answer).refresh_token;
