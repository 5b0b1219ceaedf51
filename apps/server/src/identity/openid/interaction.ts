import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { singleLineText } from '@tc/contract/text';
import { OAuthError } from '../oauth-error';
import type { ProviderRegistry } from './registry';

export const realmParams = z.object({ realm: singleLineText().min(1).max(100) });
export const actionParams = realmParams.extend({ uid: singleLineText().min(1).max(100) });

export const expired = () =>
  new OAuthError(
    400,
    'invalid_request',
    'This sign-in request has expired or belongs to another browser; start again from the application.',
  );

/**
 * The application's sign-in request a call of the hosted sign-in page is about, found by the
 * browser's interaction cookie and checked against the uid in the path; and how to finish it
 * once the page has authenticated an account (the answer is where the browser goes next).
 */
export async function loadInteraction(
  registry: ProviderRegistry,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { realm: realmName, uid } = request.params as z.infer<typeof actionParams>;
  const realm = await registry.requireRealm(realmName);
  const { provider } = await registry.forRealm(realm);
  const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => {
    throw expired();
  });
  if (details.uid !== uid) throw expired();
  const signIn = (login: { accountId: string; remember: boolean }) =>
    provider.interactionResult(
      request.raw,
      reply.raw,
      {
        login,
        // A request with prompt=consent (which offline_access needs) would otherwise come
        // back to this page after every sign-in. This answers only the prompt itself: an
        // application that is not first-party still meets the consent page for anything the
        // user has not allowed it (grants.ts, identity/consent).
        consent: {},
      },
      { mergeWithLastSubmission: false },
    );
  return { realm, provider, details, signIn };
}
