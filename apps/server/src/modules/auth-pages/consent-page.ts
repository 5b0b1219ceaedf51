import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthPageState } from '@tc/contract/auth-page';
import { hostedSignInPath } from '@tc/contract/links';
import { SIGN_IN_STEP_PATHS } from '@tc/contract/sign-in-step-paths';
import { z } from 'zod';
import { formField } from './form-fields';
import { callInside, pageErrorOf } from './inside-call';
import type { AuthPageRenderer } from './renderer';

const consentAsked = z.object({ clientName: z.string(), scopes: z.array(z.string()) });

/**
 * The hosted page's state as the consent page, when its interaction waits for the signed-in
 * user's consent to an application that is not first-party (the consent step answers what
 * it asks for); the state as it was otherwise.
 */
export async function consentPageOr(
  app: FastifyInstance,
  request: FastifyRequest,
  state: AuthPageState,
): Promise<AuthPageState> {
  if (!state.hosted || state.hosted.expired) return state;
  const { realm, uid } = state.hosted;
  const answer = await callInside(app, request, {
    method: 'GET',
    url: `${hostedSignInPath(realm, uid)}${SIGN_IN_STEP_PATHS.consent}`,
  });
  const asked = answer.status === 200 ? consentAsked.safeParse(answer.body) : undefined;
  return asked?.success ? { ...state, page: 'consent', consent: asked.data } : state;
}

/** Whether a form posted to the hosted page is the consent page's (its Allow or Deny). */
export const isConsentForm = (body: unknown) => formField(body, 'decision') !== '';

/**
 * The consent form posted without script: the decision goes to the consent step, as the
 * page's script sends it, and the browser goes on where it says (the application, with a
 * code or access_denied); a refused one shows the page again with why.
 */
export async function postConsent(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  renderer: AuthPageRenderer,
  pageState: () => Promise<AuthPageState>,
) {
  const { realm, uid } = request.params as { realm: string; uid: string };
  const answer = await callInside(app, request, {
    method: 'POST',
    url: `${hostedSignInPath(realm, uid)}${SIGN_IN_STEP_PATHS.consent}`,
    form: { decision: formField(request.body, 'decision') },
  });
  if (answer.setCookies.length > 0) reply.header('set-cookie', answer.setCookies);
  const redirectTo = (answer.body as { redirectTo?: unknown } | undefined)?.redirectTo;
  if (answer.status < 400 && typeof redirectTo === 'string') return reply.redirect(redirectTo, 303);
  const state = await consentPageOr(app, request, await pageState());
  return renderer.send(reply, { ...state, error: pageErrorOf(answer) }, 400);
}
