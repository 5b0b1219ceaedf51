import fc from 'fast-check';
import { CLIENT_ID } from '@tc/contract/permissions';
import { anyText, typedText } from './arbitraries';
import { headers, percentEncode } from './http-parts';
import type { OpenIdWorld } from './openid-world';
import type { FuzzWorld } from './world';

const basicAuth = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${percentEncode(id)}:${percentEncode(secret)}`).toString('base64')}`;

/** No client authentication, the confidential application's (right or wrong), or any pair. */
export const clientAuthentication = (openId: OpenIdWorld) =>
  fc.oneof(
    { arbitrary: headers({}), weight: 3 },
    {
      arbitrary: fc
        .constantFrom(openId.web.secret, 'wrong-secret')
        .chain((secret) => headers({ authorization: basicAuth(openId.web.clientId, secret) })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(anyText, anyText)
        .map(([id, secret]) => ({ authorization: basicAuth(id, secret) })),
      weight: 1,
    },
  );

/**
 * The token endpoint's grants that the provider serves, and the logout it serves (the end of
 * a browser session), for the generators of those two shared routes.
 */
export function openIdGrants(world: FuzzWorld) {
  const { openId } = world;
  const code = fc.constantFrom(...openId.codes);
  const authorizationCode = code.chain(({ code: value, verifier }) =>
    fc.record(
      {
        grant_type: fc.constant('authorization_code'),
        client_id: fc.constant(openId.spa),
        code: fc.oneof(fc.constant(value), fc.stringMatching(/^[A-Za-z0-9_-]{43}$/)),
        code_verifier: fc.oneof(fc.constant(verifier), typedText(43)),
        redirect_uri: fc.constant(openId.redirectUri),
      },
      { requiredKeys: ['grant_type', 'code'] },
    ),
  );
  const providerRefresh = fc.record({
    grant_type: fc.constant('refresh_token'),
    client_id: fc.constantFrom(openId.spa, CLIENT_ID),
    refresh_token: fc.constantFrom(...openId.refreshTokens),
  });
  const clientCredentials = fc.record(
    {
      grant_type: fc.constant('client_credentials'),
      client_id: fc.constant(openId.web.clientId),
      client_secret: fc.constantFrom(openId.web.secret, 'wrong-secret'),
      scope: fc.constantFrom('openid', 'profile', ''),
    },
    { requiredKeys: ['grant_type'] },
  );
  const endSession = fc.record(
    {
      id_token_hint: fc.constantFrom(...openId.sessions.map((s) => s.idToken)),
      post_logout_redirect_uri: fc.constant(openId.postLogoutRedirectUri),
      state: typedText(20),
    },
    { requiredKeys: [] },
  );
  const clientAuth = clientAuthentication(openId);
  return { authorizationCode, providerRefresh, clientCredentials, endSession, clientAuth };
}
