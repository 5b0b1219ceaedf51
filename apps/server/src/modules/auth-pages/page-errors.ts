import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthPageError, AuthPageName, AuthPageState } from '@tc/contract/auth-page';
import type { AppContext } from '../../app-context';
import { loggableError, redactUrl } from '../../http/logging';
import { AppError } from '../../http/problem';
import { basePageState } from './page-state';
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
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
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
    const state: AuthPageState = await basePageState(ctx, request, reply, page).catch(() => ({
      page,
      url: request.url,
      language: 'en' as const,
      tenant: null,
    }));
    return renderer.send(reply, { ...state, error: pageError }, status);
  };
}
