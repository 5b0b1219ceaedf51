import type { Client } from '@tc/contract/clients';

/** The tenant's issuer: its realm at the identity provider, on the console's own origin. */
export const issuerUrl = (origin: string, realm: string) =>
  `${origin}/realms/${encodeURIComponent(realm)}`;

export const discoveryUrl = (issuer: string) => `${issuer}/.well-known/openid-configuration`;

/** A JavaScript string literal in single quotes. */
const literal = (value: string) =>
  `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

type SnippetClient = Pick<
  Client,
  'clientId' | 'type' | 'grantTypes' | 'redirectUris' | 'idTokenSignedResponseAlg'
>;

/**
 * The client metadata argument of `discovery`: the secret for a confidential client (read
 * from the environment, so it is never pasted into code), and the ID token algorithm when it
 * is not openid-client's default, RS256, which it would otherwise insist on.
 */
function metadataArgument(client: SnippetClient): string | undefined {
  const secret = client.type === 'confidential' ? 'process.env.CLIENT_SECRET' : undefined;
  if (client.idTokenSignedResponseAlg === 'RS256') return secret;
  const alg = `id_token_signed_response_alg: ${literal(client.idTokenSignedResponseAlg)}`;
  return secret ? `{ client_secret: ${secret}, ${alg} }` : `{ ${alg} }`;
}

function discoveryCall(issuer: string, client: SnippetClient): string[] {
  const args = [`new URL(${literal(issuer)})`, literal(client.clientId)];
  const metadata = metadataArgument(client);
  // openid-client refuses plain http unless told to; only a developer's machine serves it.
  const insecure = issuer.startsWith('http:');
  if (metadata || insecure) args.push(metadata ?? 'undefined');
  if (insecure) args.push('undefined', '{ execute: [client.allowInsecureRequests] }');
  return ['const config = await client.discovery(', ...args.map((arg) => `  ${arg},`), ');'];
}

function codeFlow(client: SnippetClient): string[] {
  const redirect = client.redirectUris[0] ?? '<redirect URI>';
  return [
    '',
    "// Sign-in: keep `verifier` in the user's session and send the browser to `url`.",
    'const verifier = client.randomPKCECodeVerifier();',
    'const url = client.buildAuthorizationUrl(config, {',
    `  redirect_uri: ${literal(redirect)},`,
    "  scope: 'openid profile email',",
    '  code_challenge: await client.calculatePKCECodeChallenge(verifier),',
    "  code_challenge_method: 'S256',",
    '});',
    '',
    '// Back at the redirect URI (`currentUrl`, with its query): the code becomes tokens.',
    'const tokens = await client.authorizationCodeGrant(config, currentUrl, {',
    '  pkceCodeVerifier: verifier,',
    '});',
  ];
}

/**
 * Ready code for openid-client 6 (Node.js): discovery, then the flow the client's grants
 * allow — the authorization code with PKCE, and/or a client_credentials token.
 */
export function quickStartSnippet(issuer: string, client: SnippetClient): string {
  const lines = ["import * as client from 'openid-client';", '', ...discoveryCall(issuer, client)];
  const grants = new Set(client.grantTypes);
  if (grants.has('authorization_code')) lines.push(...codeFlow(client));
  if (grants.has('client_credentials')) {
    const name = grants.has('authorization_code') ? 'serviceTokens' : 'tokens';
    lines.push(
      '',
      '// Tokens for the application itself, with the permissions of its service roles.',
      `const ${name} = await client.clientCredentialsGrant(config);`,
    );
  }
  return `${lines.join('\n')}\n`;
}
