import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CONSENT_SCOPES, SIGN_IN_STEP_PATHS } from '@tc/contract/sign-in-step-paths';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import { loadInteraction } from '../openid/interaction';
import type { ProviderRegistry } from '../openid/registry';
import { refusals, STEPS_BASE, stepOptions } from '../openid/sign-in-step-kit';
import type { Database } from '../../db/database';
import { isFirstParty } from './awaits-consent';
import { recordConsent } from './consents';

const decisionBody = z.object({ decision: z.enum(['allow', 'deny']) });

/** What the consent page shows: the application and the scopes it asks for. */
export interface ConsentRequest {
  clientName: string;
  scopes: string[];
}

const consentScopes = (scope: unknown) =>
  CONSENT_SCOPES.filter((known) =>
    String(scope ?? '')
      .split(' ')
      .includes(known),
  );

/**
 * The interaction a consent step is about: the provider's consent prompt for a signed-in
 * user and an application that is not first-party; none otherwise (the page signs in).
 */
async function consentWaiting(
  registry: ProviderRegistry,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { realm, provider, details } = await loadInteraction(registry, request, reply);
  reply.header('cache-control', 'no-store');
  const accountId = details.session?.accountId;
  const client = await provider.Client.find(String(details.params['client_id']));
  if (details.prompt.name !== 'consent' || !accountId || !client || isFirstParty(client)) {
    return undefined;
  }
  const clientRowId = client['client_row_id'];
  if (typeof clientRowId !== 'string') return undefined;
  return { realm, provider, details, accountId, client, clientRowId };
}

/**
 * The consent page's steps (`/login-actions/{realm}/{uid}/consent`): what the application
 * asks for, and the user's answer, given to the provider's interaction as its result — a
 * consent (the grant then covers what was allowed: grants.ts) or `access_denied`, which the
 * provider sends back to the application's redirect URI.
 */
export function registerConsentSteps(
  app: FastifyInstance,
  deps: { registry: ProviderRegistry; db: Database },
) {
  const path = `${STEPS_BASE}${SIGN_IN_STEP_PATHS.consent}`;

  app.get(path, stepOptions(undefined), async (request, reply): Promise<ConsentRequest> => {
    const waiting = await consentWaiting(deps.registry, request, reply);
    if (!waiting) throw refusals.noStepWaiting();
    return {
      clientName: waiting.client.clientName ?? waiting.client.clientId,
      scopes: consentScopes(waiting.details.params['scope']),
    };
  });

  app.post(path, stepOptions(decisionBody), async (request, reply): Promise<SignInStep> => {
    const { decision } = request.body as z.infer<typeof decisionBody>;
    const waiting = await consentWaiting(deps.registry, request, reply);
    if (!waiting) throw refusals.noStepWaiting();
    const { provider, details, realm, accountId, clientRowId } = waiting;
    if (decision === 'deny') {
      const redirectTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        { error: 'access_denied', error_description: 'The user did not allow the application.' },
        { mergeWithLastSubmission: false },
      );
      return { next: 'done', redirectTo };
    }
    await recordConsent(
      deps.db,
      { tenantId: realm.id, userId: accountId, clientRowId },
      consentScopes(details.params['scope']),
    );
    const redirectTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { consent: {} },
      { mergeWithLastSubmission: true },
    );
    return { next: 'done', redirectTo };
  });
}
