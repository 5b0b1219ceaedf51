import fc from 'fast-check';
import { CLIENT_ID, MASTER_REALM } from '@tc/contract/permissions';
import { emailAt, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { fieldsQuery, formBody, fuzzRequest, headers, jsonBody, pathSegment } from './http-parts';
import { clientAuthentication } from './generators-openid-grants';
import type { FuzzWorld } from './world';

/**
 * Generators of the OpenID provider's routes: the authorization endpoint and its resume, the
 * hosted sign-in page's three calls, userinfo, introspection, revocation and the end of the
 * session (the grants of the token endpoint: generators-openid-grants.ts).
 * Requests start from the world's sign-ins at each step, with their cookies, so that most
 * get past the first checks; any of their parts may then be changed.
 */

const REALMS = '/realms/:realm';
const OIDC = `${REALMS}/protocol/openid-connect`;

/** The valid value most of the time, else one of the others. */
const mostly = <T>(valid: T, ...others: T[]) =>
  fc.oneof(
    { arbitrary: fc.constant(valid), weight: 4 },
    { arbitrary: fc.constantFrom(...others), weight: 1 },
  );

export function openIdGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const { tenant, victim, openId } = world;
  const realm = pathSegment(
    fc.constantFrom(tenant.name, tenant.name.toUpperCase(), MASTER_REALM, 'no-such-realm'),
  );
  const inRealm = (rest: string) =>
    realm.map((name) => `/realms/${name}/protocol/openid-connect${rest}`);
  const clientId = fc.constantFrom(openId.spa, openId.web.clientId, CLIENT_ID, 'no-such-client');
  const idToken = fc.constantFrom(...openId.sessions.map((s) => s.idToken));
  const accessToken = fc.constantFrom(...openId.accessTokens, world.adminToken);
  const refreshToken = fc.constantFrom(...openId.refreshTokens, ...victim.refreshTokens);
  const anyToken = fc.oneof(accessToken, refreshToken, idToken);
  const sessionCookie = fc.constantFrom(...openId.sessions.map((s) => s.cookie));
  const browser = fc.oneof(
    headers({}),
    sessionCookie.chain((cookie) => headers({ cookie })),
  );
  const secret = fc.constantFrom(openId.web.secret, 'wrong-secret');
  const clientAuth = clientAuthentication(openId);
  const challenge = fc.stringMatching(/^[A-Za-z0-9_-]{43}$/);

  const authorizationRequest = fc.record(
    {
      client_id: mostly(openId.spa, openId.web.clientId, CLIENT_ID, 'no-such-client'),
      response_type: mostly('code', 'code id_token', 'token', 'none'),
      redirect_uri: mostly(openId.redirectUri, `${world.url}/auth/callback`, 'https://x.test/'),
      scope: fc.constantFrom('openid', 'openid profile email', 'openid offline_access', 'profile'),
      code_challenge: challenge,
      code_challenge_method: mostly('S256', 'plain'),
      state: typedText(40),
      nonce: typedText(40),
      prompt: fc.constantFrom('login', 'none', 'consent', 'select_account', 'login consent'),
      login_hint: fc.oneof(fc.constant(victim.email), emailAt(tenant.domain)),
      max_age: fc.constantFrom('0', '60', '-1', '1e9'),
      ui_locales: fc.constantFrom('fr', 'en de', 'xx'),
      id_token_hint: idToken,
      response_mode: fc.constantFrom('query', 'fragment', 'form_post'),
      resource: fc.constantFrom(`${world.url}/api`, 'https://x.test/'),
      claims: fc.constantFrom('{"id_token":{"email":null}}', '{', 'null'),
    },
    {
      requiredKeys: [
        'client_id',
        'response_type',
        'redirect_uri',
        'scope',
        'code_challenge',
        'code_challenge_method',
      ],
    },
  );
  const endSession = fc.record(
    {
      id_token_hint: fc.oneof(idToken, accessToken),
      post_logout_redirect_uri: fc.constantFrom(openId.postLogoutRedirectUri, 'https://x.test/'),
      state: typedText(20),
      client_id: clientId,
      ui_locales: fc.constantFrom('fr', 'en'),
      logout_hint: typedText(20),
    },
    { requiredKeys: [] },
  );

  /** A request about an interaction (or a made-up uid), with its browser's cookies or none. */
  const aboutInteraction = (
    list: { uid: string; cookie: string }[],
    method: string,
    path: (realm: string, uid: string) => string,
    body?: ReturnType<typeof formBody>,
  ) =>
    fc.constantFrom(...list).chain(({ uid, cookie }) =>
      fuzzRequest({
        method,
        path: fc
          .tuple(realm, pathSegment(fc.oneof(fc.constant(uid), typedText(43))))
          .map(([name, id]) => path(name, id)),
        headers: fc.oneof(headers({ cookie }), headers({})),
        body,
      }),
    );
  const secondFactorCode = fc.oneof(
    fc.stringMatching(/^\d{6}$/),
    fc.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
    typedText(20),
  );
  const base64url = fc.stringMatching(/^[A-Za-z0-9_-]{0,64}$/);
  const passkeyAssertion = fc.record({
    id: base64url,
    rawId: base64url,
    type: fc.constantFrom('public-key', 'password'),
    response: fc.record({
      clientDataJSON: base64url,
      authenticatorData: base64url,
      signature: base64url,
    }),
    clientExtensionResults: fc.constant({}),
  });
  const signInForm = fc.record(
    {
      username: fc.oneof(fc.constant(victim.email), emailAt(tenant.domain)),
      password: fc.oneof(fc.constant(victim.password), typedText(20)),
      remember: fc.constantFrom('on', 'true', 'false'),
    },
    { requiredKeys: ['username', 'password'] },
  );

  return {
    [`GET ${OIDC}/auth`]: fuzzRequest({
      method: 'GET',
      path: inRealm('/auth'),
      query: fieldsQuery(authorizationRequest),
      headers: browser,
    }),
    [`POST ${OIDC}/auth`]: fuzzRequest({
      method: 'POST',
      path: inRealm('/auth'),
      headers: browser,
      body: formBody(authorizationRequest),
    }),
    [`GET ${OIDC}/auth/:uid`]: aboutInteraction(
      openId.resumes,
      'GET',
      (name, uid) => `/realms/${name}/protocol/openid-connect/auth/${uid}`,
    ),
    ['GET /login-actions/:realm/:uid/details']: aboutInteraction(
      openId.interactions,
      'GET',
      (name, uid) => `/login-actions/${name}/${uid}/details`,
    ),
    // The hosted page itself: rendered with the request's details, and its forms posted
    // without script (the password, or a code).
    ['GET /login-actions/:realm/:uid']: aboutInteraction(
      openId.interactions,
      'GET',
      (name, uid) => `/login-actions/${name}/${uid}`,
    ),
    ['POST /login-actions/:realm/:uid']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}`,
      formBody(fc.oneof(signInForm, fc.record({ code: secondFactorCode }))),
    ),
    ['POST /login-actions/:realm/:uid/login']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/login`,
      formBody(signInForm),
    ),
    // The stand-in Google's ID tokens (sign-ins, sign-ups) or one that is not.
    ['POST /login-actions/:realm/:uid/google']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/google`,
      jsonBody(fc.record({ credential: fc.constantFrom('x.y.z', ...world.googleCredentials) })),
    ),
    // The steps after the password: a code (six digits, a recovery code, anything), the
    // enrolment, and a passkey's options and assertion (of no known credential).
    ['POST /login-actions/:realm/:uid/second-factor']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/second-factor`,
      formBody(fc.record({ code: secondFactorCode })),
    ),
    // The consent page's question and answer (allow, deny or anything else).
    ['GET /login-actions/:realm/:uid/consent']: aboutInteraction(
      openId.interactions,
      'GET',
      (name, uid) => `/login-actions/${name}/${uid}/consent`,
    ),
    ['POST /login-actions/:realm/:uid/consent']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/consent`,
      formBody(fc.record({ decision: fc.oneof(fc.constantFrom('allow', 'deny'), typedText(10)) })),
    ),
    ['POST /login-actions/:realm/:uid/enrol/totp']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/enrol/totp`,
      formBody(fc.constant({})),
    ),
    ['POST /login-actions/:realm/:uid/enrol/totp/confirm']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/enrol/totp/confirm`,
      formBody(fc.record({ code: secondFactorCode })),
    ),
    ['POST /login-actions/:realm/:uid/passkey/options']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/passkey/options`,
      jsonBody(fc.constant({})),
    ),
    ['POST /login-actions/:realm/:uid/passkey']: aboutInteraction(
      openId.interactions,
      'POST',
      (name, uid) => `/login-actions/${name}/${uid}/passkey`,
      jsonBody(fc.record({ response: passkeyAssertion })),
    ),
    [`GET ${OIDC}/userinfo`]: fuzzRequest({
      method: 'GET',
      path: inRealm('/userinfo'),
      headers: anyToken.chain((token) => headers({ authorization: `Bearer ${token}` })),
    }),
    [`POST ${OIDC}/userinfo`]: fuzzRequest({
      method: 'POST',
      path: inRealm('/userinfo'),
      headers: fc.oneof(
        headers({}),
        anyToken.chain((token) => headers({ authorization: `Bearer ${token}` })),
      ),
      body: formBody(fc.record({ access_token: anyToken })),
    }),
    [`POST ${OIDC}/token/introspect`]: fuzzRequest({
      method: 'POST',
      path: inRealm('/token/introspect'),
      headers: clientAuth,
      body: formBody(
        fc.record(
          {
            token: anyToken,
            token_type_hint: fc.constantFrom('access_token', 'refresh_token', 'x'),
            client_id: clientId,
            client_secret: secret,
          },
          { requiredKeys: ['token'] },
        ),
      ),
    }),
    [`POST ${OIDC}/revoke`]: fuzzRequest({
      method: 'POST',
      path: inRealm('/revoke'),
      headers: clientAuth,
      body: formBody(
        fc.record(
          {
            token: anyToken,
            token_type_hint: fc.constantFrom('access_token', 'refresh_token', 'x'),
            client_id: clientId,
          },
          { requiredKeys: ['token'] },
        ),
      ),
    }),
    [`GET ${OIDC}/logout`]: fuzzRequest({
      method: 'GET',
      path: inRealm('/logout'),
      query: fieldsQuery(endSession),
      headers: browser,
    }),
    // A session's sign-out form sent back (its xsrf, or another), with or without its cookies.
    [`POST ${OIDC}/logout/confirm`]: fc.constantFrom(...openId.sessions).chain((session) =>
      fuzzRequest({
        method: 'POST',
        path: inRealm('/logout/confirm'),
        headers: fc.oneof(headers({ cookie: session.cookie }), headers({})),
        body: formBody(
          fc.record(
            {
              xsrf: fc.oneof(fc.constant(session.xsrf), challenge),
              logout: fc.constantFrom('yes', ''),
            },
            { requiredKeys: [] },
          ),
        ),
      }),
    ),
    [`GET ${OIDC}/logout/success`]: fuzzRequest({
      method: 'GET',
      path: inRealm('/logout/success'),
      headers: browser,
    }),
  };
}
