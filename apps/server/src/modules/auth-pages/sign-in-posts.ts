import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AUTH_PAGE_PATHS,
  CONSOLE_SIGN_IN_COOKIE,
  type AuthPageState,
  type ConsoleSignInCookie,
  type PendingSignInStep,
} from '@tc/contract/auth-page';
import { CONSOLE_CLIENT_PATHS, HOSTED_SIGN_IN_PATH, hostedSignInPath } from '@tc/contract/links';
import { SIGN_IN_STEP_PATHS, signInStepSchema } from '@tc/contract/sign-in-steps';
import type { AppContext } from '../../app-context';
import { isConsentForm, postConsent } from './consent-page';
import { formFields, shown } from './form-fields';
import { callInside, pageErrorOf, type InsideAnswer } from './inside-call';
import { basePageState, hostedPageRoute, hostedPageState } from './page-state';
import { CLIENT_ID } from '@tc/contract/permissions';
import type { AuthPageRenderer } from './renderer';

const SIGN_IN_FIELDS = ['username', 'password', 'remember', 'code'] as const;
type SignInForm = Record<(typeof SIGN_IN_FIELDS)[number], string>;

const COOKIE_MAX_AGE_S = 600;

const random = (bytes: number) => randomBytes(bytes).toString('base64url');
/** RFC 7636 S256: BASE64URL(SHA-256(verifier)). */
const pkceChallenge = (verifier: string) =>
  createHash('sha256').update(verifier).digest('base64url');

const shownValues = (form: SignInForm) => ({
  username: shown(form.username),
  ...(form.remember === 'on' ? { remember: 'on' } : {}),
});

function consoleCookie(request: FastifyRequest, value: ConsoleSignInCookie) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  const encoded = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${CONSOLE_SIGN_IN_COOKIE}=${encoded}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
}

/** A step's answer: onwards (303), the page asking for the next step, or the page with why not. */
function answerStep(
  reply: FastifyReply,
  renderer: AuthPageRenderer,
  state: AuthPageState,
  stepsPath: string,
  answer: InsideAnswer,
  refusedPending?: PendingSignInStep,
) {
  if (answer.status >= 400) {
    const pending = refusedPending ? { pending: refusedPending } : {};
    return renderer.send(reply, { ...state, ...pending, error: pageErrorOf(answer) }, 400);
  }
  const step = signInStepSchema.safeParse(answer.body);
  if (!step.success) throw new Error('a sign-in step answered no step');
  if (step.data.next === 'done') return reply.redirect(step.data.redirectTo, 303);
  return renderer.send(reply, { ...state, pending: { stepsPath, step: step.data } });
}

/**
 * The sign-in forms posted without script. The console's (`POST /login`) first makes the
 * authorization request its script would make, with a PKCE pair of its own kept in a cookie
 * for the callback page to exchange the code with; both then post the password (or the code)
 * to the hosted sign-in's steps, and the browser goes on where they say.
 */
export function registerSignInPosts(
  app: FastifyInstance,
  ctx: AppContext,
  renderer: AuthPageRenderer,
) {
  app.post(
    AUTH_PAGE_PATHS.signIn,
    { schema: { hide: true }, config: { page: 'signIn' } },
    async (request, reply) => {
      const form = formFields(request.body, SIGN_IN_FIELDS);
      const base = await basePageState(ctx, request, reply, 'signIn');
      const state = { ...base, values: shownValues(form) };
      if (!state.tenant) {
        const error = { kind: 'problem', status: 404, code: 'tenant.unknown_address' } as const;
        return renderer.send(reply, { ...state, error }, 404);
      }
      const realm = state.tenant.name;
      const origin = `${request.protocol}://${request.host}`;
      const verifier = random(32);
      const cookie: Omit<ConsoleSignInCookie, 'stepsPath'> = {
        realm,
        verifier,
        state: random(16),
        nonce: random(16),
        remember: form.remember === 'on',
      };
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: CLIENT_ID,
        redirect_uri: `${origin}${CONSOLE_CLIENT_PATHS.callback}`,
        scope: 'openid profile email',
        code_challenge: pkceChallenge(verifier),
        code_challenge_method: 'S256',
        state: cookie.state,
        nonce: cookie.nonce,
        prompt: 'login',
        ui_locales: state.language,
        ...(form.username ? { login_hint: form.username.slice(0, 255) } : {}),
      });
      const authorize = await callInside(app, request, {
        method: 'GET',
        url: `/realms/${encodeURIComponent(realm)}/protocol/openid-connect/auth?${query}`,
      });
      const stepsPath = new URL(authorize.location ?? '/', origin).pathname;
      if (!stepsPath.startsWith('/login-actions/')) {
        const refused = new URL(authorize.location ?? '/', origin).searchParams;
        const error = {
          kind: 'oauth',
          error: refused.get('error') ?? 'server_error',
          description: refused.get('error_description') ?? '',
        } as const;
        return renderer.send(reply, { ...state, error }, 400);
      }
      const answer = await callInside(app, request, {
        method: 'POST',
        url: `${stepsPath}${SIGN_IN_STEP_PATHS.password}`,
        form: {
          username: form.username,
          password: form.password,
          remember: String(cookie.remember),
        },
        cookies: authorize.setCookies,
      });
      reply.header('set-cookie', [
        ...authorize.setCookies,
        ...answer.setCookies,
        ...(answer.status < 400 ? [consoleCookie(request, { ...cookie, stepsPath })] : []),
      ]);
      return answerStep(reply, renderer, state, stepsPath, answer);
    },
  );

  app.post(HOSTED_SIGN_IN_PATH, hostedPageRoute, async (request, reply) => {
    const { realm, uid } = request.params as { realm: string; uid: string };
    if (isConsentForm(request.body)) {
      const pageState = () => hostedPageState(app, ctx, request, reply, realm, uid);
      return postConsent(app, request, reply, renderer, pageState);
    }
    const form = formFields(request.body, SIGN_IN_FIELDS);
    const stepsPath = hostedSignInPath(realm, uid);
    const byCode =
      typeof request.body === 'object' && request.body !== null && 'code' in request.body;
    const answer = await callInside(app, request, {
      method: 'POST',
      url: `${stepsPath}${byCode ? SIGN_IN_STEP_PATHS.secondFactor : SIGN_IN_STEP_PATHS.password}`,
      form: byCode
        ? { code: form.code }
        : {
            username: form.username,
            password: form.password,
            remember: form.remember === 'on' ? 'on' : 'false',
          },
    });
    if (answer.setCookies.length > 0) reply.header('set-cookie', answer.setCookies);
    if (answer.status < 400 && (answer.body as { next?: string })?.next === 'done') {
      return answerStep(reply, renderer, {} as AuthPageState, stepsPath, answer);
    }
    const state = await hostedPageState(app, ctx, request, reply, realm, uid);
    const withValues = byCode ? state : { ...state, values: shownValues(form) };
    // A wrong code asks for the code again.
    const again: PendingSignInStep | undefined = byCode
      ? { stepsPath, step: { next: 'second-factor', methods: ['totp', 'recovery-code'] } }
      : undefined;
    return answerStep(reply, renderer, withValues, stepsPath, answer, again);
  });
}
