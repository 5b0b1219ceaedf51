import type { FastifyInstance } from 'fastify';
import { signupRequestSchema } from '@tc/contract/account';
import { AUTH_PAGE_PATHS, type AuthPageError } from '@tc/contract/auth-page';
import { isProblemCode } from '@tc/contract/problem-codes';
import { API_BASE_PATH } from '@tc/contract/route';
import { authRoutes } from '@tc/contract/routes/auth';
import type { AppContext } from '../../app-context';
import { formField, formFields, shown } from './form-fields';
import { callInside, pageErrorOf } from './inside-call';
import { basePageState } from './page-state';
import type { AuthPageRenderer } from './renderer';

const SIGN_UP_FIELDS = ['fullName', 'email', 'password', 'repeat', 'terms'] as const;
const NEW_PASSWORD_FIELDS = ['token', 'password', 'confirm'] as const;
type SignUpForm = Record<(typeof SIGN_UP_FIELDS)[number], string>;

type FieldCodes = Record<string, { code: string }>;

/** A form's refusal before posting, in the shape of the API's: field codes. */
const refusedFields = (fields: FieldCodes): AuthPageError => ({
  kind: 'problem',
  status: 400,
  code: 'request.invalid',
  fields,
});

/** The fields the sign-up page's script refuses before posting, with the same codes. */
function signUpRefusals(form: SignUpForm): FieldCodes {
  const fields: FieldCodes = {};
  const parsed = signupRequestSchema.safeParse(form);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0]);
    if (isProblemCode(issue.message)) fields[field] ??= { code: issue.message };
  }
  if (form.password !== form.repeat) fields['repeat'] = { code: 'password.mismatch' };
  if (form.terms !== 'on') fields['terms'] = { code: 'terms.required' };
  return fields;
}

const api = (path: string) => `${API_BASE_PATH}${path}`;

/**
 * Sign-up, forgot password and new password posted without script: checked as the page's
 * script checks them, then sent to the account API as it sends them; the page answers with
 * what the script would show — the API's refusal at its fields, or what follows.
 */
export function registerAccountPosts(
  app: FastifyInstance,
  ctx: AppContext,
  renderer: AuthPageRenderer,
) {
  app.post(
    AUTH_PAGE_PATHS.signUp,
    { schema: { hide: true }, config: { page: 'signUp' } },
    async (request, reply) => {
      const form = formFields(request.body, SIGN_UP_FIELDS);
      const values = {
        fullName: shown(form.fullName),
        email: shown(form.email),
        ...(form.terms === 'on' ? { terms: 'on' } : {}),
      };
      const state = { ...(await basePageState(ctx, request, reply, 'signUp')), values };
      const refused = signUpRefusals(form);
      if (Object.keys(refused).length > 0) {
        return renderer.send(reply, { ...state, error: refusedFields(refused) }, 400);
      }
      const answer = await callInside(app, request, {
        method: 'POST',
        url: api(authRoutes.signup.path),
        json: { fullName: form.fullName, email: form.email, password: form.password },
      });
      if (answer.status >= 400) {
        return renderer.send(reply, { ...state, error: pageErrorOf(answer) }, answer.status);
      }
      return renderer.send(reply, { ...state, notice: 'signedUp' });
    },
  );

  app.post(
    AUTH_PAGE_PATHS.forgotPassword,
    { schema: { hide: true }, config: { page: 'forgotPassword' } },
    async (request, reply) => {
      const email = formField(request.body, 'email');
      const answer = await callInside(app, request, {
        method: 'POST',
        url: api(authRoutes.forgotPassword.path),
        json: { email },
      });
      const page = answer.status >= 400 ? 'forgotPassword' : 'checkEmail';
      const state = {
        ...(await basePageState(ctx, request, reply, page)),
        values: { email: shown(email) },
      };
      if (answer.status >= 400) {
        return renderer.send(reply, { ...state, error: pageErrorOf(answer) }, answer.status);
      }
      return renderer.send(reply, state);
    },
  );

  app.post(
    AUTH_PAGE_PATHS.newPassword,
    { schema: { hide: true }, config: { page: 'newPassword' } },
    async (request, reply) => {
      const { token, password, confirm } = formFields(request.body, NEW_PASSWORD_FIELDS);
      const state = {
        ...(await basePageState(ctx, request, reply, 'newPassword')),
        values: { token: shown(token) },
      };
      if (password !== confirm) {
        const error = refusedFields({ confirm: { code: 'password.mismatch' } });
        return renderer.send(reply, { ...state, error }, 400);
      }
      const answer = await callInside(app, request, {
        method: 'POST',
        url: api(authRoutes.resetPassword.path),
        json: { token, password },
      });
      if (answer.status >= 400) {
        return renderer.send(reply, { ...state, error: pageErrorOf(answer) }, answer.status);
      }
      return reply.redirect(AUTH_PAGE_PATHS.passwordReset, 303);
    },
  );
}
