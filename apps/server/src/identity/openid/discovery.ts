import { OPENID_ROUTES, SCOPES } from './provider';

/**
 * The realm's discovery document (OpenID Connect Discovery 1.0): everything it lists is
 * served and tested, and nothing else is listed.
 */
export function discoveryDocument(issuer: string) {
  const url = (path: string) => `${issuer}${path}`;
  return {
    issuer,
    authorization_endpoint: url(OPENID_ROUTES.authorization),
    token_endpoint: url(OPENID_ROUTES.token),
    userinfo_endpoint: url(OPENID_ROUTES.userinfo),
    jwks_uri: url(OPENID_ROUTES.jwks),
    revocation_endpoint: url(OPENID_ROUTES.revocation),
    introspection_endpoint: url(OPENID_ROUTES.introspection),
    end_session_endpoint: url(OPENID_ROUTES.end_session),
    response_types_supported: ['code'],
    // The provider answers in each of the three response modes of OAuth 2.0 for code.
    response_modes_supported: ['query', 'fragment', 'form_post'],
    grant_types_supported: [
      'authorization_code',
      'client_credentials',
      'refresh_token',
      'password',
    ],
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'ES256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: [
      'none',
      'client_secret_basic',
      'client_secret_post',
    ],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'azp',
      'at_hash',
      'email',
      'email_verified',
      'name',
      'given_name',
      'family_name',
      'locale',
      'preferred_username',
    ],
    // consent: the consent page of an application that is not first-party (identity/consent);
    // the tenant's own applications are answered by signing in on the hosted page.
    prompt_values_supported: ['none', 'login', 'consent'],
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  };
}
