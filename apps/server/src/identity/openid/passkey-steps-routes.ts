import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGN_IN_STEP_PATHS, type SignInStep } from '@tc/contract/sign-in-steps';
import { clearLoginFailures } from '../brute-force';
import { OAuthError } from '../oauth-error';
import { principalById } from '../principal';
import {
  passkeyAssertionSchema,
  passkeySignInOptions,
  realmRelyingParty,
  verifyPasskeyAssertion,
} from '../second-factor/passkey-sign-in';
import { requestOrigin } from '../second-factor/relying-party';
import { dropSignInStep, findSignInStep } from '../second-factor/sign-in-steps';
import { accountRefusal } from '../token-service';
import {
  refusals,
  rememberOf,
  signInStepKit,
  STEPS_BASE as base,
  stepOptions as options,
  type SignInStepDeps,
} from './sign-in-step-kit';

const passkeyBody = z.object({
  response: passkeyAssertionSchema,
  remember: z.boolean().optional(),
});

const JSON_ONLY = 'The body must be JSON with the passkey\'s answer: {"response": {…}}.';

/** The passkey steps take JSON; a body that is no JSON object is refused in these words. */
function inJsonTerms(error: FastifyError): never {
  const wholeBody =
    hasZodFastifySchemaValidationErrors(error) &&
    error.validationContext === 'body' &&
    !error.validation[0]?.instancePath;
  if (wholeBody) throw new OAuthError(400, 'invalid_request', JSON_ONLY);
  if (error.statusCode === 415)
    throw new OAuthError(400, 'invalid_request', 'The body must be JSON.');
  throw error;
}

/**
 * The passkey on the hosted sign-in page: request options for a discoverable credential, then
 * the browser's assertion, which signs its user in alone (a passkey is both factors) or ends
 * a password sign-in waiting for its second factor. Only on the tenant's own address, the
 * relying party's domain.
 */
export function registerPasskeySteps(app: FastifyInstance, deps: SignInStepDeps) {
  const { db, config } = deps;
  const publicUrl = config.publicUrl;
  const { openStep, finish } = signInStepKit(deps);

  // A scope of its own: the realm's other routes take forms only, the passkey's the browser's
  // JSON (and a form too).
  void app.register(async (scope) => {
    if (!scope.hasContentTypeParser('application/json')) {
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'string' },
        scope.getDefaultJsonParser('error', 'error'),
      );
    }
    scope.setErrorHandler(inJsonTerms);
    scope.post(
      `${base}${SIGN_IN_STEP_PATHS.passkeyOptions}`,
      options(undefined),
      async (request, reply) => {
        const step = await openStep(request, reply);
        const rp = await realmRelyingParty(db, publicUrl, step.realm, requestOrigin(request));
        if (!rp) throw refusals.noPasskeysHere();
        const tenantId = step.realm.id;
        return { options: await passkeySignInOptions(db, { tenantId, uid: step.uid, rp }) };
      },
    );
    scope.post(
      `${base}${SIGN_IN_STEP_PATHS.passkey}`,
      options(passkeyBody),
      async (request, reply): Promise<SignInStep> => {
        const body = request.body as z.infer<typeof passkeyBody>;
        const step = await openStep(request, reply);
        const tenantId = step.realm.id;
        const rp = await realmRelyingParty(db, publicUrl, step.realm, requestOrigin(request));
        if (!rp) throw refusals.noPasskeysHere();
        const verified = await verifyPasskeyAssertion(db, {
          tenantId,
          uid: step.uid,
          rp,
          assertion: body.response,
        });
        const principal = verified ? await principalById(db, tenantId, verified.userId) : undefined;
        if (!verified || !principal?.tenantEnabled) throw refusals.passkeyRefused();
        const refusal = accountRefusal(principal);
        if (refusal) throw refusal;
        // After this user's right password, the passkey is the second factor and the sign-in
        // is complete; the password's earlier failures are forgotten as after a code. Alone,
        // it is both factors only when the authenticator verified the user (NIST SP 800-63B
        // §5.1.8: a multi-factor authenticator needs its activation factor); otherwise it is
        // what the user has, and the password is still needed.
        const pending = await findSignInStep(db, {
          key: step.key,
          tenantId,
          kind: 'second-factor',
        });
        const afterPassword = pending?.userId === principal.userId;
        if (!afterPassword && !verified.userVerified) throw refusals.passkeyNotVerified();
        await dropSignInStep(db, step.key, tenantId);
        if (afterPassword) await clearLoginFailures(db, principal.userId);
        const remember = afterPassword ? rememberOf(pending.data) : body.remember === true;
        return finish(step, principal.userId, remember);
      },
    );
  });
}
