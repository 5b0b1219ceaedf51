import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SignInStep } from '@tc/contract/sign-in-steps';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { OAuthError } from '../oauth-error';
import type { SecretBox } from '../second-factor/secret-box';
import {
  asksSecondFactor,
  mustEnrol,
  noticeNewBrowser,
  secondFactorMethods,
  signInFacts,
  type SignInFacts,
} from '../second-factor/sign-in-facts';
import {
  findSignInStep,
  interactionStepKey,
  saveSignInStep,
  type SignInStepKind,
} from '../second-factor/sign-in-steps';
import type { TokenService } from '../token-service';
import type { Realm } from '../realms';
import { browserOrigin, ensureBrowserId, type SessionOrigin } from './browser-id';
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

export const STEPS_BASE = '/login-actions/:realm/:uid';

/** The refusals of the steps after the password, in the OAuth shape of the password step's. */
export const refusals = {
  noStepWaiting: () =>
    new OAuthError(
      400,
      'invalid_request',
      'No sign-in is waiting for this step any more: sign in with your password again.',
    ),
  wrongCode: () => new OAuthError(400, 'invalid_grant', 'Invalid authenticator code'),
  passkeyRefused: () => new OAuthError(400, 'invalid_grant', 'This passkey was not accepted.'),
  passkeyNotVerified: () =>
    new OAuthError(
      400,
      'passkey_not_verified',
      'This passkey did not verify you (no PIN or biometrics): sign in with your password, then use it as the second step.',
    ),
  noPasskeysHere: () =>
    new OAuthError(400, 'passkeys_unavailable', "Passkeys work on the tenant's own address only."),
  alreadyEnrolled: () =>
    new OAuthError(
      400,
      'invalid_request',
      'An authenticator app is already set up for this account: sign in with your password again.',
    ),
};

export const rememberOf = (data: Record<string, unknown>) => data['remember'] === true;

/** A step's route options: its parameters and, if it takes one, its body. */
export const stepOptions = (body: z.ZodType | undefined) => ({
  schema: body ? { params: actionParams, body } : { params: actionParams },
});

/** A step's request: its interaction and how to finish it, and the browser it comes from. */
export interface OpenedStep {
  realm: Realm;
  signIn: (login: { accountId: string; remember: boolean }) => Promise<string>;
  uid: string;
  /** Where what waits between this interaction's steps is kept. */
  key: string;
  origin: SessionOrigin;
  acceptLanguage: string | undefined;
}

/** What every step does: find its interaction, count it, know the browser, and finish. */
export function signInStepKit(deps: SignInStepDeps) {
  const { registry, db, config } = deps;
  const publicUrl = config.publicUrl;

  /** The interaction a step is about, counted against the limits, and the browser it is in. */
  async function openStep(request: FastifyRequest, reply: FastifyReply): Promise<OpenedStep> {
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

  /** Finishes the application's sign-in request for the user: the browser goes on there. */
  async function finish(
    step: OpenedStep,
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

  /**
   * A first factor (the password, Google) has authenticated the user: the sign-in is done, or
   * waits under the interaction's key for the second factor the user has, or for the enrolment
   * the tenant requires. `settle` lets the first factor's own bookkeeping (a password's
   * attempt) follow the outcome.
   */
  async function afterFirstFactor(
    step: OpenedStep,
    principal: { userId: string; permissions: readonly string[] },
    remember: boolean,
    settle: { waiting?: () => Promise<unknown>; done?: () => Promise<unknown> } = {},
  ): Promise<SignInStep> {
    const facts = await signInFacts(db, principal.userId, step.origin.browserHash);
    const asks = asksSecondFactor(facts);
    if (asks || mustEnrol(facts, principal.permissions)) {
      await settle.waiting?.();
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
    await settle.done?.();
    return finish(step, principal.userId, remember, facts);
  }

  async function waiting(step: OpenedStep, kind: SignInStepKind) {
    const found = await findSignInStep(db, { key: step.key, tenantId: step.realm.id, kind });
    if (!found?.userId) throw refusals.noStepWaiting();
    return { ...found, user: { id: found.userId, tenantId: step.realm.id } };
  }

  return { openStep, finish, afterFirstFactor, waiting };
}
