import fc from 'fast-check';
import { anyJson, anyText, idFrom, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer } from './generators-entities';
import { fuzzRequest, headers, jsonBody, pathSegment } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';
const at = (path: string) => fc.constant(`${API}${path}`);

/**
 * The signed-in user's account routes and the administrator's view of a user's security.
 * The account routes speak as the victim, never as the administrator whose token the other
 * data routes use: a fuzzed request may end the victim's other sessions or change its
 * password, which must not end the fuzzing of the rest.
 */
export function accountGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const auth = bearer(world.victim.accessToken);
  const origin = `http://${world.tenant.domain}`;
  const withOrigin = headers({ authorization: `Bearer ${world.victim.accessToken}`, origin });
  const admin = bearer(world.adminToken);
  // Invited users: they have no sessions of the fuzzing's own to end.
  const userId = pathSegment(idFrom(world.users.kept));
  const anyId = pathSegment(fc.oneof(fc.uuid(), anyText));
  const password = fc.oneof(fc.constant(world.victim.password), typedText(40), anyText);
  const code = fc.oneof(
    fc.stringMatching(/^\d{6}$/),
    fc.stringMatching(/^[0-9A-Z-]{19}$/),
    anyText,
  );
  const registration = fc.record({
    id: fc.oneof(fc.base64String(), anyText),
    rawId: fc.oneof(fc.base64String(), anyText),
    type: fc.constantFrom('public-key', 'other'),
    response: fc.record(
      {
        clientDataJSON: fc.oneof(fc.base64String(), anyText),
        attestationObject: fc.oneof(fc.base64String(), anyText),
        transports: fc.array(fc.oneof(fc.constantFrom('usb', 'internal'), anyText)),
      },
      { requiredKeys: [] },
    ),
    clientExtensionResults: anyJson,
  });
  const assertion = fc.record({
    id: fc.oneof(fc.base64String(), anyText),
    rawId: fc.oneof(fc.base64String(), anyText),
    type: fc.constantFrom('public-key', 'other'),
    response: fc.record(
      {
        clientDataJSON: fc.oneof(fc.base64String(), anyText),
        authenticatorData: fc.oneof(fc.base64String(), anyText),
        signature: fc.oneof(fc.base64String(), anyText),
        userHandle: fc.oneof(fc.base64String(), anyText),
      },
      { requiredKeys: [] },
    ),
  });
  const request = (method: string, path: fc.Arbitrary<string>, body?: fc.Arbitrary<unknown>) =>
    fuzzRequest({ method, path, headers: auth, ...(body ? { body: jsonBody(body) } : {}) });
  const asAdmin = (method: string, path: fc.Arbitrary<string>) =>
    fuzzRequest({ method, path, headers: admin });

  return {
    [`GET ${API}/account`]: request('GET', at('/account')),
    [`PUT ${API}/account`]: request(
      'PUT',
      at('/account'),
      fc.record({
        firstName: typedText(100),
        lastName: typedText(100),
        locale: fc.constantFrom('en', 'de', 'fr', 'it', null),
        notifyNewBrowser: fc.boolean(),
      }),
    ),
    [`POST ${API}/account/password`]: request(
      'POST',
      at('/account/password'),
      fc.record({ currentPassword: password, newPassword: password }),
    ),
    [`POST ${API}/account/reverify/options`]: fuzzRequest({
      method: 'POST',
      path: at('/account/reverify/options'),
      headers: withOrigin,
    }),
    [`POST ${API}/account/reverify`]: fuzzRequest({
      method: 'POST',
      path: at('/account/reverify'),
      headers: withOrigin,
      body: jsonBody(
        fc.record({ password, code, passkey: fc.oneof(assertion, anyJson) }, { requiredKeys: [] }),
      ),
    }),
    [`GET ${API}/account/mfa`]: request('GET', at('/account/mfa')),
    [`POST ${API}/account/mfa/totp/setup`]: request('POST', at('/account/mfa/totp/setup')),
    [`POST ${API}/account/mfa/totp/confirm`]: request(
      'POST',
      at('/account/mfa/totp/confirm'),
      fc.record({ code }),
    ),
    [`DELETE ${API}/account/mfa/totp`]: request('DELETE', at('/account/mfa/totp')),
    [`POST ${API}/account/mfa/recovery-codes`]: request('POST', at('/account/mfa/recovery-codes')),
    [`POST ${API}/account/passkeys/options`]: fuzzRequest({
      method: 'POST',
      path: at('/account/passkeys/options'),
      headers: withOrigin,
    }),
    [`POST ${API}/account/passkeys`]: request(
      'POST',
      at('/account/passkeys'),
      fc.record({ name: typedText(100), response: registration }),
    ),
    [`PUT ${API}/account/passkeys/:id`]: request(
      'PUT',
      anyId.map((id) => `${API}/account/passkeys/${id}`),
      fc.record({ name: typedText(100) }),
    ),
    [`DELETE ${API}/account/passkeys/:id`]: request(
      'DELETE',
      anyId.map((id) => `${API}/account/passkeys/${id}`),
    ),
    [`GET ${API}/account/sessions`]: request('GET', at('/account/sessions')),
    [`POST ${API}/account/sessions/:id/revoke`]: request(
      'POST',
      anyId.map((id) => `${API}/account/sessions/${id}/revoke`),
    ),
    [`POST ${API}/account/sessions/revoke-others`]: request(
      'POST',
      at('/account/sessions/revoke-others'),
    ),
    [`GET ${API}/account/applications`]: request('GET', at('/account/applications')),
    [`DELETE ${API}/account/applications/:id`]: request(
      'DELETE',
      anyId.map((id) => `${API}/account/applications/${id}`),
    ),
    [`GET ${API}/users/:id/sessions`]: asAdmin(
      'GET',
      userId.map((id) => `${API}/users/${id}/sessions`),
    ),
    [`POST ${API}/users/:id/sessions/:sessionId/revoke`]: asAdmin(
      'POST',
      fc
        .tuple(userId, anyId)
        .map(([id, sessionId]) => `${API}/users/${id}/sessions/${sessionId}/revoke`),
    ),
    [`POST ${API}/users/:id/sessions/revoke-all`]: asAdmin(
      'POST',
      userId.map((id) => `${API}/users/${id}/sessions/revoke-all`),
    ),
    [`POST ${API}/users/:id/reset-mfa`]: asAdmin(
      'POST',
      userId.map((id) => `${API}/users/${id}/reset-mfa`),
    ),
  };
}
