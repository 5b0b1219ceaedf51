import fc from 'fast-check';
import {
  WEBHOOK_DELIVERY_SORT_FIELDS,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_SORT_FIELDS,
  WEBHOOK_SUBSCRIPTIONS,
} from '@tc/contract/webhooks';
import { idFrom, typedText } from './arbitraries';
import type { FuzzRequest } from './fuzz-request';
import { bearer, pageRequest } from './generators-entities';
import { fuzzRequest, jsonBody, pathSegment } from './http-parts';
import type { FuzzWorld } from './world';

const API = '/api/v1.0';

/**
 * The webhooks' routes. Valid bodies name hosts under `.invalid`, which the server answers as
 * unresolvable without asking DNS, and create endpoints disabled: a fuzzed change then queues
 * nothing for them, so the fuzzing sends nothing off this machine.
 */
export function webhookGenerators(world: FuzzWorld): Record<string, fc.Arbitrary<FuzzRequest>> {
  const auth = bearer(world.adminToken);
  // No endpoint is known to the world: ids are random (404) or not ids at all (400).
  const ids = fc.array(fc.uuid(), { minLength: 1, maxLength: 3 });
  const withId = (path: (id: string) => string) =>
    ids.chain((known) => pathSegment(idFrom(known))).map((id) => `${API}/webhooks/${path(id)}`);
  const url = fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      fc.constant('invalid'),
      typedText(20),
    )
    .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}/${encodeURIComponent(path)}`);
  const endpoint = fc.record(
    {
      url,
      description: typedText(100),
      eventTypes: fc.subarray([...WEBHOOK_SUBSCRIPTIONS], { minLength: 1 }),
      enabled: fc.constant(false),
    },
    { requiredKeys: ['url', 'eventTypes', 'enabled'] },
  );
  const update = fc.tuple(endpoint, fc.uuid()).map(([body, id]) => ({ ...body, id }));
  const post = (path: fc.Arbitrary<string>, body?: fc.Arbitrary<unknown>) =>
    fuzzRequest({
      method: 'POST',
      path,
      headers: auth,
      ...(body ? { body: jsonBody(body) } : {}),
    });
  return {
    [`POST ${API}/webhooks/page`]: post(
      fc.constant(`${API}/webhooks/page`),
      pageRequest(WEBHOOK_SORT_FIELDS, { enabled: fc.boolean() }),
    ),
    [`POST ${API}/webhooks/create`]: post(fc.constant(`${API}/webhooks/create`), endpoint),
    [`PUT ${API}/webhooks/update`]: fuzzRequest({
      method: 'PUT',
      path: fc.constant(`${API}/webhooks/update`),
      headers: auth,
      body: jsonBody(update),
    }),
    [`POST ${API}/webhooks/delete/:id`]: post(withId((id) => `delete/${id}`)),
    [`GET ${API}/webhooks/:id`]: fuzzRequest({
      method: 'GET',
      path: withId((id) => id),
      headers: auth,
    }),
    [`POST ${API}/webhooks/:id/rotate-secret`]: post(withId((id) => `${id}/rotate-secret`)),
    [`POST ${API}/webhooks/:id/test`]: post(withId((id) => `${id}/test`)),
    [`POST ${API}/webhooks/:id/deliveries/page`]: post(
      withId((id) => `${id}/deliveries/page`),
      pageRequest(WEBHOOK_DELIVERY_SORT_FIELDS, {
        status: fc.constantFrom(...WEBHOOK_DELIVERY_STATUSES),
      }),
    ),
    [`POST ${API}/webhooks/:id/deliveries/:deliveryId/resend`]: post(
      fc
        .tuple(
          withId((id) => id),
          ids.chain((known) => pathSegment(idFrom(known))),
        )
        .map(([endpoint, delivery]) => `${endpoint}/deliveries/${delivery}/resend`),
    ),
  };
}
