import type { TestIssuer } from '../helpers/google-test-issuer';

/**
 * The server's settings for fuzzing: limits per client address and per user raised, so that
 * thousands of requests from one address reach the routes instead of a 429 (a 429 is still a
 * valid answer); tokens that outlive the run.
 */
export const FUZZ_SERVER_ENV: Record<string, string> = {
  ACCOUNT_RATE_LIMIT: '1000000',
  ACCOUNT_TOKEN_RATE_LIMIT: '1000000',
  ASSISTANT_RATE_LIMIT: '1000000',
  TOKEN_RATE_LIMIT: '1000000',
  TOKEN_REALM_RATE_LIMIT: '1000000',
  ACCESS_TOKEN_TTL: String(24 * 3600),
};

/** Claims a Google ID token could carry, odd ones included: the names become a user's. */
const ODD_NAMES = [
  'Ada',
  'A\u0000da',
  '\uD800',
  'Ti\tm',
  '\u0085',
  ' ',
  'x'.repeat(300),
  '\u202Eevil',
];

/** ID tokens signed by the stand-in Google: valid, and valid with odd names or addresses. */
export async function googleCredentials(issuer: TestIssuer): Promise<string[]> {
  const credentials = [];
  for (const [i, name] of ODD_NAMES.entries()) {
    credentials.push(
      await issuer.idToken({ sub: `fuzz-${i}`, email: `google-${i}@fuzz.test`, name }),
      await issuer.idToken({ sub: `fuzz-g-${i}`, email: `g-${i}@fuzz.test`, given_name: name }),
    );
  }
  credentials.push(
    await issuer.idToken({ sub: 'fuzz-odd-email', email: 'odd\u0000@fuzz.test' }),
    await issuer.idToken({ sub: 'fuzz-no-email' }),
    await issuer.idToken({ sub: 'fuzz-expired', email: 'late@fuzz.test' }, { expiresAt: 1 }),
    await issuer.idToken({ sub: 'fuzz-forged', email: 'forged@fuzz.test' }, { forged: true }),
  );
  return credentials;
}
