import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGN_IN_STEP_PATHS, type SignInStep } from '@tc/contract/sign-in-steps';
import { singleLineText } from '@tc/contract/text';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { clearLoginFailures, countLoginAttempt, undoLoginAttempt } from '../brute-force';
import { OAuthError } from '../oauth-error';
import { principalById } from '../principal';
import { notifySecurityEvent } from '../second-factor/notifications';
import {
  passkeyAssertionSchema,
  passkeySignInOptions,
  realmRelyingParty,
  verifyPasskeySignIn,
} from '../second-factor/passkey-sign-in';
import { replaceRecoveryCodes } from '../second-factor/recovery-codes';
import { requestOrigin } from '../second-factor/relying-party';
import type { SecretBox } from '../second-factor/secret-box';
import {
  asksSecondFactor,
  mustEnrol,
  noticeNewBrowser,
  secondFactorMethods,
  signInFacts,
  useSecondFactorCode,
  type SignInFacts,
} from '../second-factor/sign-in-facts';
import {
  dropSignInStep,
  findSignInStep,
  interactionStepKey,
  saveSignInStep,
  takeSignInStep,
  type SignInStepKind,
} from '../second-factor/sign-in-steps';
import { startTotpEnrolment, useTotpCode } from '../second-factor/totp';
import { accountRefusal, type TokenService } from '../token-service';
import { browserOrigin, ensureBrowserId } from './browser-id';
import { actionParams, loadInteraction } from './interaction';
import type { ProviderRegistry } from './registry';

export interface SignInStepDeps {
  registry: ProviderRegistry;
  tokens: TokenService;
  db: Database;
  config: Config;
  mfaSecrets: SecretBox;
  /** Counts a sign-in attempt against the password limits (per address, per realm). */
  limitSignIn: (realm: string, clientAddress: string) => Promise<void>;
}

const loginBody = z.object({
  username: singleLineText().max(255).optional(),
  password: singleLineText().max(1024).optional(),
  remember: z.enum(['on', 'true', 'false']).optional(),
});
const codeBody = z.object({ code: singleLineText().max(100).optional() });
const passkeyBody = z.object({
  response: passkeyAssertionSchema,
  remember: z.boolean().optional(),
});

/** The refusals of the steps after the password, in the OAuth shape of the password step's. */
const refusals = {
  noStepWaiting: () =>
    new OAuthError(
      400,
      'invalid_request',
      'No sign-in is waiting for this step any more: sign in with your password again.',
    ),
  wrongCode: () => new OAuthError(400, 'invalid_grant', 'Invalid authenticator code'),
  passkeyRefused: () => new OAuthError(400, 'invalid_grant', 'This passkey was not accepted.'),
  noPasskeysHere: () =>
    new OAuthError(400, 'passkeys_unavailable', "Passkeys work on the tenant's own address only."),
  alreadyEnrolled: () =>
    new OAuthError(
      400,
      'invalid_request',
      'An authenticator app is already set up for this account: sign in with your password again.',
    ),
};

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

const rememberOf = (data: Record<string, unknown>) => data['remember'] === true;

/**
 * The hosted sign-in page's steps (`/login-actions/{realm}/{uid}/…`): the password, then a
 * second factor (the authenticator app, a recovery code or a passkey) or the enrolment the
 * tenant requires; or a passkey alone. What waits between two steps is kept in sign_in_steps
 * under the interaction's uid, which only the browser holding its cookie can name.
 */
export function registerSignInSteps(app: FastifyInstance, deps: SignInStepDeps) {
  const { registry, tokens, db, config, mfaSecrets: box } = deps;
  const publicUrl = config.publicUrl;
  const base = '/login-actions/:realm/:uid';
  // A step that only reads, or writes what no list shows, changes no cached answer; one that
  // uses up a code or a passkey's counter, or adds an authenticator, does.
  const options = (body: z.ZodType | undefined, changesNoCachedAnswer = false) => ({
    schema: body ? { params: actionParams, body } : { params: actionParams },
    config: { changesNoCachedAnswer },
  });

  /** The interaction a step is about, counted against the limits, and the browser it is in. */
  async function openStep(request: FastifyRequest, reply: FastifyReply) {
    const { realm, signIn } = await loadInteraction(registry, request, reply);
    await deps.limitSignIn(realm.name, request.ip);
    const browserId = ensureBrowserId(request, reply, publicUrl);
    reply.header('cache-control', 'no-store');
    const { uid } = request.params as z.infer<typeof actionParams>;
    return {
      realm,
      signIn,
      key: interactionStepKey(uid),
      uid,
      origin: browserOrigin(request.headers, request.ip, browserId),
      acceptLanguage: request.headers['accept-language'],
    };
  }
  type Step = Awaited<ReturnType<typeof openStep>>;

  /** Finishes the application's sign-in request for the user: the browser goes on there. */
  async function finish(
    step: Step,
    userId: string,
    remember: boolean,
    known?: SignInFacts,
  ): Promise<{ next: 'done'; redirectTo: string }> {
    const facts = known ?? (await signInFacts(db, userId, step.origin.browserHash));
    const redirectTo = await step.signIn({ accountId: userId, remember });
    await noticeNewBrowser(db, publicUrl, {
      userId,
      facts,
      origin: step.origin,
      acceptLanguage: step.acceptLanguage,
    });
    return { next: 'done', redirectTo };
  }

  async function waiting(step: Step, kind: SignInStepKind) {
    const found = await findSignInStep(db, { key: step.key, tenantId: step.realm.id, kind });
    if (!found?.userId) throw refusals.noStepWaiting();
    return { ...found, user: { id: found.userId, tenantId: step.realm.id } };
  }

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.password}`,
    options(loginBody, true),
    async (request, reply): Promise<SignInStep> => {
      const body = request.body as z.infer<typeof loginBody>;
      const step = await openStep(request, reply);
      const { principal, attempt } = await tokens.checkPassword({
        realm: step.realm.name,
        clientId: undefined,
        username: body.username,
        password: body.password,
        checkClient: false,
      });
      const remember = body.remember === 'on' || body.remember === 'true';
      const facts = await signInFacts(db, principal.userId, step.origin.browserHash);
      const asks = asksSecondFactor(facts);
      if (asks || mustEnrol(facts, principal.permissions)) {
        // The password alone signs nobody in: its attempt is taken back (unless another has
        // counted since), but earlier failures stay, so a password sent again never buys
        // more guesses at the code.
        await undoLoginAttempt(db, attempt);
        await saveSignInStep(db, {
          key: step.key,
          tenantId: step.realm.id,
          userId: principal.userId,
          kind: asks ? 'second-factor' : 'enrol',
          data: { remember },
        });
        return asks
          ? { next: 'second-factor', methods: secondFactorMethods(facts) }
          : { next: 'enrol' };
      }
      await clearLoginFailures(db, principal.userId);
      return finish(step, principal.userId, remember, facts);
    },
  );

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.secondFactor}`,
    options(codeBody),
    async (request, reply): Promise<SignInStep> => {
      const { code = '' } = request.body as z.infer<typeof codeBody>;
      const step = await openStep(request, reply);
      const { user } = await waiting(step, 'second-factor');
      // A code is a guess like a password: counted first, and not even checked when locked.
      const attempt = await countLoginAttempt(db, config.bruteForce, {
        id: user.id,
        tenantId: user.tenantId,
      });
      const right =
        attempt.allowed &&
        (await useSecondFactorCode({ db, box, publicUrl }, user, code, step.acceptLanguage));
      if (!right) throw refusals.wrongCode();
      const taken = await takeSignInStep(db, {
        key: step.key,
        tenantId: user.tenantId,
        kind: 'second-factor',
      });
      if (taken?.userId !== user.id) throw refusals.noStepWaiting();
      await clearLoginFailures(db, user.id);
      return finish(step, user.id, rememberOf(taken.data));
    },
  );

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.enrolTotp}`,
    options(undefined, true),
    async (request, reply) => {
      const step = await openStep(request, reply);
      const { user } = await waiting(step, 'enrol');
      const principal = await principalById(db, user.tenantId, user.id);
      if (!principal) throw refusals.noStepWaiting();
      const enrolment = await startTotpEnrolment(
        db,
        box,
        { ...user, email: principal.email },
        step.realm.name,
      );
      if (!enrolment) throw refusals.alreadyEnrolled();
      return enrolment;
    },
  );

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.enrolTotpConfirm}`,
    options(codeBody),
    async (request, reply): Promise<SignInStep> => {
      const { code = '' } = request.body as z.infer<typeof codeBody>;
      const step = await openStep(request, reply);
      const { user } = await waiting(step, 'enrol');
      // The first code confirms the secret; the step, the codes and the notice go with it.
      const confirmed = await db.transaction(async (tx) => {
        if (!(await useTotpCode(tx, box, user, code.replaceAll(' ', ''), false))) return undefined;
        const taken = await takeSignInStep(tx, {
          key: step.key,
          tenantId: user.tenantId,
          kind: 'enrol',
        });
        if (taken?.userId !== user.id) throw refusals.noStepWaiting();
        const recoveryCodes = await replaceRecoveryCodes(tx, user);
        await notifySecurityEvent(tx, publicUrl, {
          userId: user.id,
          event: 'totpAdded',
          acceptLanguage: step.acceptLanguage,
        });
        return { recoveryCodes, remember: rememberOf(taken.data) };
      });
      if (!confirmed) throw refusals.wrongCode();
      await clearLoginFailures(db, user.id);
      const done = await finish(step, user.id, confirmed.remember);
      return { ...done, recoveryCodes: confirmed.recoveryCodes };
    },
  );

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
      options(undefined, true),
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
        const userId = await verifyPasskeySignIn(db, {
          tenantId,
          uid: step.uid,
          rp,
          assertion: body.response,
        });
        const principal = userId ? await principalById(db, tenantId, userId) : undefined;
        if (!principal?.tenantEnabled) throw refusals.passkeyRefused();
        const refusal = accountRefusal(principal);
        if (refusal) throw refusal;
        // A passkey is both factors. After this user's right password, the sign-in is
        // complete, and the password's earlier failures are forgotten as after a code.
        const pending = await findSignInStep(db, {
          key: step.key,
          tenantId,
          kind: 'second-factor',
        });
        const afterPassword = pending?.userId === principal.userId;
        await dropSignInStep(db, step.key, tenantId);
        if (afterPassword) await clearLoginFailures(db, principal.userId);
        const remember = afterPassword ? rememberOf(pending.data) : body.remember === true;
        return finish(step, principal.userId, remember);
      },
    );
  });
}
