import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthPageError, AuthPageName, AuthPageState } from '@tc/contract/auth-page';
import type { AppContext } from '../../app-context';
import { loggableError, redactUrl } from '../../http/logging';
import { AppError } from '../../http/problem';
import { isFormTokenRefusal, refusedForm } from './form-guard';
import { basePageState, hostedPageState } from './page-state';
import type { AuthPageRenderer } from './renderer';

/** The page a route shows (its `config.page`). */
const pageOf = (request: FastifyRequest): AuthPageName =>
  (request.routeOptions.config as { page?: AuthPageName }).page ?? 'signIn';

/**
 * A sign-in page's request that failed before, or outside, its handler's own answers: the
 * browser gets the page with why, in the shapes the page shows (a refusal of Fastify's — a
 * body of another type, too large — is `request.refused`; anything else `request.failed`,
 * logged).
 */
export function answerPageError(ctx: AppContext, renderer: AuthPageRenderer) {
  return async (raised: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A form token refused by the library is said as a form of another site, or expired.
    const error: FastifyError | AppError = isFormTokenRefusal(raised) ? refusedForm() : raised;
    const status =
      error instanceof AppError
        ? error.status
        : (error.statusCode ?? 500) < 500
          ? error.statusCode!
          : 500;
    if (status >= 500) {
      request.log.error(
        { err: loggableError(error), url: redactUrl(request.url), method: request.method },
        'a sign-in page failed',
      );
    }
    const pageError: AuthPageError = {
      kind: 'problem',
      status,
      code:
        error instanceof AppError
          ? error.code
          : status >= 500
            ? 'request.failed'
            : 'request.refused',
    };
    const page = pageOf(request);
    // A refused form's hosted page is shown again with its request's details (its address
    // checked by the route's schema before the token is), the form ready to be sent again.
    const { realm = '', uid = '' } = (request.params ?? {}) as { realm?: string; uid?: string };
    const fresh =
      page === 'hostedSignIn' && error instanceof AppError && error.code === 'form.cross_site'
        ? hostedPageState(request.server, ctx, request, reply, realm, uid)
        : basePageState(ctx, request, reply, page);
    const state: AuthPageState = await fresh.catch(() => ({
      page,
      url: request.url,
      language: 'en' as const,
      tenant: null,
    }));
    return renderer.send(reply, { ...state, error: pageError }, status);
  };
}
