import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problemText } from '@tc/contract/problem-codes';
import { sendOAuthError } from '../identity/routes';
import { sendProblem } from './problem';

/**
 * Fastify refuses some URLs before it picks a route: an escape that does not decode (`%`,
 * `%ED%A0%80`) or a path parameter over its length limit. They get the shape of the routes
 * they were meant for: OAuth errors under /realms/ and /login-actions/ (the hosted sign-in
 * page's calls), problem+json everywhere else.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const code = tooLong ? 'request.address_too_long' : 'request.address_invalid';
  if (request.url.startsWith('/realms/') || request.url.startsWith('/login-actions/')) {
    return sendOAuthError(reply, 400, 'invalid_request', problemText(code));
  }
  return sendProblem(reply, { status: tooLong ? 414 : 400, code });
}
