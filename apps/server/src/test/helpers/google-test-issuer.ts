import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { sql } from 'drizzle-orm';
import type { TestServer } from '../harness';
import type { CookieJar } from './relying-party';

export const GOOGLE_CLIENT_ID = 'test-client.apps.googleusercontent.com';
const KEY_ID = 'google-test-key';

/** A stand-in for Google: an RS256 key whose public half is served as a JWKS on 127.0.0.1. */
export interface TestIssuer {
  jwksUrl: string;
  /** Signs an ID token like Google's; claims and options override the defaults. */
  idToken(claims?: JWTPayload, options?: IdTokenOptions): Promise<string>;
  close(): Promise<void>;
}

export interface IdTokenOptions {
  issuer?: string;
  audience?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
  /** Sign with another private key under the same key id (a forged signature). */
  forged?: boolean;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const server: Server = createServer((req, res) => {
    if (req.url !== '/certs') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  async function idToken(claims: JWTPayload = {}, options: IdTokenOptions = {}) {
    const now = Math.floor(Date.now() / 1000);
    const key = options.forged ? other.privateKey : privateKey;
    return new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(options.issuer ?? 'https://accounts.google.com')
      .setAudience(options.audience ?? GOOGLE_CLIENT_ID)
      .setSubject(String(claims.sub ?? '1234567890'))
      .setIssuedAt(now - 60)
      .setExpirationTime(options.expiresAt ?? now + 3600)
      .sign(key);
  }

  return {
    jwksUrl: `http://127.0.0.1:${port}/certs`,
    idToken,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface GoogleAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POSTs /api/v1.0/auth/google with node:http, so the Host header can be chosen (fetch
 * always sends the URL's host).
 */
export function postGoogle(
  server: TestServer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<GoogleAnswer> {
  return postJson(server, '/api/v1.0/auth/google', body, headers).then(({ answer }) => answer);
}

/**
 * A Google sign-in as the console's sign-in screen makes it: a nonce for this browser first,
 * then Google's credential carrying it, sent from the same browser (its cookie).
 */
export async function postGoogleSignIn(
  server: TestServer,
  issuer: TestIssuer,
  claims: JWTPayload,
  headers: Record<string, string> = {},
): Promise<GoogleAnswer> {
  const { nonce, cookie } = await googleNonce(server, headers);
  const credential = await issuer.idToken({ ...claims, nonce });
  return postGoogle(server, { credential }, { ...headers, cookie });
}

/**
 * What the sign-in screen does before it shows Google's button: asks for a nonce, which the
 * server keeps for this browser (its browser-id cookie, set by this answer when it had none).
 * Answers the nonce (undefined when refused) and the Cookie header that names the browser.
 */
export async function googleNonce(
  server: TestServer,
  headers: Record<string, string> = {},
): Promise<{ nonce: string | undefined; cookie: string; status: number }> {
  const { answer, setCookie } = await postJson(
    server,
    '/api/v1.0/auth/google/nonce',
    undefined,
    headers,
  );
  const browser = setCookie.find((line) => line.startsWith('tc_browser='))?.split(';')[0];
  const cookie = browser ?? headers.cookie ?? '';
  const nonce = typeof answer.body.nonce === 'string' ? answer.body.nonce : undefined;
  return { nonce, cookie, status: answer.status };
}

function postJson(
  server: TestServer,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ answer: GoogleAnswer; setCookie: string[] }> {
  const url = new URL(server.url);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const type: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        method: 'POST',
        path,
        headers: { ...type, host: url.host, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({
            answer: { status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} },
            setCookie: res.headers['set-cookie'] ?? [],
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Google's credential for a sign-in in the browser `jar` stands for, made as the sign-in page
 * makes one: the nonce asked for first (for the page's realm), then put in the ID token.
 */
export async function googleCredentialIn(
  server: TestServer,
  issuer: TestIssuer,
  input: { jar: CookieJar; realm: string; claims: JWTPayload; options?: IdTokenOptions },
): Promise<string> {
  const found = (await server.database.db.execute(
    sql`select id from tenants where name = ${input.realm}`,
  )) as unknown as { rows: Array<{ id: string }> };
  const answer = await input.jar.fetch(`${server.url}/api/v1.0/auth/google/nonce`, {
    method: 'POST',
    headers: { 'tenant-id': found.rows[0]!.id },
  });
  const { nonce } = (await answer.json()) as { nonce?: string };
  return issuer.idToken({ ...input.claims, nonce }, input.options);
}
