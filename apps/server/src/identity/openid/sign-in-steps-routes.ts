import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SIGN_IN_STEP_PATHS, type SignInStep } from '@tc/contract/sign-in-steps';
import { singleLineText } from '@tc/contract/text';
import {
  clearLoginFailures,
  failLoginAttempt,
  passLoginAttempt,
  startLoginAttempt,
  withdrawLoginAttempt,
} from '../brute-force';
import { principalById } from '../principal';
import { notifySecurityEvent } from '../second-factor/notifications';
import { replaceRecoveryCodes } from '../second-factor/recovery-codes';
import { useSecondFactorCode } from '../second-factor/sign-in-facts';
import { takeSignInStep } from '../second-factor/sign-in-steps';
import { startTotpEnrolment, useTotpCode } from '../second-factor/totp';
import { registerPasskeySteps } from './passkey-steps-routes';
import {
  refusals,
  rememberOf,
  signInStepKit,
  STEPS_BASE as base,
  stepOptions as options,
  type SignInStepDeps,
} from './sign-in-step-kit';

export type { SignInStepDeps } from './sign-in-step-kit';

const loginBody = z.object({
  username: singleLineText().max(255).optional(),
  password: singleLineText().max(1024).optional(),
  remember: z.enum(['on', 'true', 'false']).optional(),
});
const codeBody = z.object({ code: singleLineText().max(100).optional() });

/**
 * The hosted sign-in page's steps (`/login-actions/{realm}/{uid}/…`): the password, then a
 * second factor (the authenticator app, a recovery code or a passkey) or the enrolment the
 * tenant requires; or a passkey alone. What waits between two steps is kept in sign_in_steps
 * under the interaction's uid, which only the browser holding its cookie can name.
 */
export function registerSignInSteps(app: FastifyInstance, deps: SignInStepDeps) {
  const { tokens, db, config, mfaSecrets: box } = deps;
  const publicUrl = config.publicUrl;
  const { openStep, finish, afterFirstFactor, waiting } = signInStepKit(deps);

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.password}`,
    options(loginBody),
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
      return afterFirstFactor(step, principal, remember, {
        // The password alone signs nobody in: its attempt is withdrawn, but earlier failures
        // stay, so a password sent again never buys more guesses at the code.
        waiting: () => withdrawLoginAttempt(db, attempt),
        done: () => passLoginAttempt(db, attempt),
      });
    },
  );

  app.post(
    `${base}${SIGN_IN_STEP_PATHS.secondFactor}`,
    options(codeBody),
    async (request, reply): Promise<SignInStep> => {
      const { code = '' } = request.body as z.infer<typeof codeBody>;
      const step = await openStep(request, reply);
      const { user } = await waiting(step, 'second-factor');
      // A code is a guess like a password: pending while checked, and not even checked when
      // locked.
      const attempt = await startLoginAttempt(db, config.bruteForce, {
        id: user.id,
        tenantId: user.tenantId,
      });
      const right =
        attempt.allowed &&
        (await useSecondFactorCode({ db, box, publicUrl }, user, code, step.acceptLanguage));
      if (!right) {
        await failLoginAttempt(db, config.bruteForce, attempt);
        throw refusals.wrongCode();
      }
      const taken = await takeSignInStep(db, {
        key: step.key,
        tenantId: user.tenantId,
        kind: 'second-factor',
      });
      if (taken?.userId !== user.id) {
        await withdrawLoginAttempt(db, attempt);
        throw refusals.noStepWaiting();
      }
      await passLoginAttempt(db, attempt);
      return finish(step, user.id, rememberOf(taken.data));
    },
  );

  app.post(`${base}${SIGN_IN_STEP_PATHS.enrolTotp}`, options(undefined), async (request, reply) => {
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
  });

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

  registerPasskeySteps(app, deps);
}
