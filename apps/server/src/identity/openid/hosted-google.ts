import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { googleSignInSchema, type GoogleSignIn } from '@tc/contract/google';
import { isProblemCode, problemText } from '@tc/contract/problem-codes';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import { AppError, notFound } from '../../http/problem';
import { OAuthError } from '../oauth-error';
import type { Realm } from '../realms';
import { actionParams } from './interaction';
import { signInStepKit, STEPS_BASE, type SignInStepDeps } from './sign-in-step-kit';

/**
 * Signs the holder of a Google ID token in to a realm's tenant, by the rules of the console's
 * Google sign-in (which live with the modules, above this layer: app.ts passes them in).
 * Answers the account Google authenticated, and what its role grants (a tenant's policy may
 * require a second factor of administrators only).
 */
export type RealmGoogleSignIn = (input: {
  realm: Realm;
  credential: string;
  log: FastifyBaseLogger;
  /** The browser the credential came from, whose sign-in's nonce it must carry. */
  browserHash: string | null;
}) => Promise<{ accountId: string; permissions: readonly string[] }>;

const JSON_ONLY = 'The body must be JSON with the Google credential: {"credential": "…"}.';

/**
 * The refusals of the Google rules (problem codes) said in the OAuth shape, as every other
 * answer of the hosted sign-in page's routes is; the scope's parent handler sends them.
 */
function inOAuthTerms(error: FastifyError | AppError): never {
  if (error instanceof AppError) {
    const name =
      error.status === 401 ? 'invalid_grant' : error.status === 403 ? 'access_denied' : undefined;
    throw new OAuthError(error.status, name ?? 'invalid_request', error.detail);
  }
  if (hasZodFastifySchemaValidationErrors(error) && error.validationContext === 'body') {
    const message = error.validation[0]?.message;
    throw new OAuthError(
      400,
      'invalid_request',
      isProblemCode(message) ? problemText(message) : JSON_ONLY,
    );
  }
  if (error.statusCode === 415) throw new OAuthError(400, 'invalid_request', JSON_ONLY);
  throw error;
}

/**
 * POST /login-actions/{realm}/{uid}/google: the hosted sign-in page's "Sign in with Google".
 * The page posts the ID token Google Identity Services handed it. Google is a first factor
 * like the password, and is answered as the password step is: done (the browser goes back
 * to the application), or the second factor the user has, or the enrolment the tenant
 * requires, which the same steps then take.
 */
export function registerHostedGoogle(
  app: FastifyInstance,
  deps: SignInStepDeps & { googleSignIn: RealmGoogleSignIn | undefined },
) {
  const signIn = deps.googleSignIn;
  const { openStep, afterFirstFactor } = signInStepKit(deps);
  // A scope of its own: the realm's other routes take forms only, this one the JSON the
  // console's Google sign-in takes too.
  void app.register(async (scope) => {
    if (!scope.hasContentTypeParser('application/json')) {
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'string' },
        scope.getDefaultJsonParser('error', 'error'),
      );
    }
    scope.setErrorHandler(inOAuthTerms);
    scope.post(
      `${STEPS_BASE}/google`,
      {
        schema: { params: actionParams, body: googleSignInSchema },
        // Before the body is read: an unconfigured server answers 404 whatever is sent.
        onRequest: async () => {
          if (!signIn) throw notFound('google.not_configured');
        },
      },
      async (request, reply): Promise<SignInStep> => {
        const { credential } = request.body as GoogleSignIn;
        const step = await openStep(request, reply);
        const signedIn = await signIn!({
          realm: step.realm,
          credential,
          log: request.log,
          browserHash: step.origin.browserHash,
        });
        // Google offers no "remember me": the browser session ends with the browser.
        return afterFirstFactor(
          step,
          { userId: signedIn.accountId, permissions: signedIn.permissions },
          false,
        );
      },
    );
  });
}
