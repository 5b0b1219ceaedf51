import { describe, expect, it } from 'vitest';
import { builtInClient, clientRow } from '../../test/clients-harness';
import { discoveryUrl, issuerUrl, quickStartSnippet } from './quick-start';

const issuer = issuerUrl('https://demo.example.com', 'demo');

describe('quick start', () => {
  it("names the realm's issuer and its discovery document", () => {
    expect(issuer).toBe('https://demo.example.com/realms/demo');
    expect(discoveryUrl(issuer)).toBe(
      'https://demo.example.com/realms/demo/.well-known/openid-configuration',
    );
  });

  it('a confidential web application: discovery with the secret from the environment, PKCE', () => {
    const code = quickStartSnippet(issuer, clientRow(2, { clientId: 'billing' }));
    expect(code).toContain(
      [
        'const config = await client.discovery(',
        "  new URL('https://demo.example.com/realms/demo'),",
        "  'billing',",
        '  process.env.CLIENT_SECRET,',
        ');',
      ].join('\n'),
    );
    expect(code).toContain("redirect_uri: 'https://app2.example.com/callback',");
    expect(code).toContain("code_challenge_method: 'S256',");
    expect(code).not.toContain('clientCredentialsGrant');
  });

  it('a service: client credentials only', () => {
    const service = clientRow(3, {
      clientId: "o'brien",
      grantTypes: ['client_credentials'],
      redirectUris: [],
    });
    const code = quickStartSnippet(issuer, service);
    expect(code).toContain("  'o\\'brien',");
    expect(code).toContain('const tokens = await client.clientCredentialsGrant(config);');
    expect(code).not.toContain('buildAuthorizationUrl');
  });

  it('a public client signing ES256 on http: no secret, the algorithm, insecure requests allowed', () => {
    const code = quickStartSnippet(issuerUrl('http://localhost:8080', 'demo'), builtInClient);
    expect(code).toContain(
      [
        "  'react-client',",
        "  { id_token_signed_response_alg: 'ES256' },",
        '  undefined,',
        '  { execute: [client.allowInsecureRequests] },',
      ].join('\n'),
    );
    expect(code).not.toContain('CLIENT_SECRET');
    expect(code).toContain("redirect_uri: '<redirect URI>',");
  });
});
