import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { signupRequestSchema } from '@tc/contract/account';
import { AUTH_PAGE_PATHS, type AuthPageError } from '@tc/contract/auth-page';
import { isProblemCode } from '@tc/contract/problem-codes';
import { API_BASE_PATH } from '@tc/contract/route';
import { authRoutes } from '@tc/contract/routes/auth';
import type { AppContext } from '../../app-context';
import { callInside, pageErrorOf } from './inside-call';
import { basePageState } from './page-state';
import type { AuthPageRenderer } from './renderer';

const text = z.string().max(4000).optional();
const signUpForm = z.object({
  fullName: text,
  email: text,
  password: text,
  repeat: text,
  terms: text,
});
const forgotForm = z.object({ email: text });
const newPasswordForm = z.object({ token: text, password: text, confirm: text });

type FieldCodes = Record<string, { code: string }>;

/** A form's refusal before posting, in the shape of the API's: field codes. */
const refusedFields = (fields: FieldCodes): AuthPageError => ({
  kind: 'problem',
  status: 400,
  code: 'request.invalid',
  fields,
});

/** The fields the sign-up page's script refuses before posting, with the same codes. */
function signUpRefusals(form: z.infer<typeof signUpForm>): FieldCodes {
  const fields: FieldCodes = {};
  const parsed = signupRequestSchema.safeParse(form);
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0]);
    if (isProblemCode(issue.message)) fields[field] ??= { code: issue.message };
  }
  if ((form.password ?? '') !== (form.repeat ?? ''))
    fields['repeat'] = { code: 'password.mismatch' };
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
    { schema: { body: signUpForm, hide: true } },
    async (request, reply) => {
      const form = request.body as z.infer<typeof signUpForm>;
      const values = {
        fullName: form.fullName ?? '',
        email: form.email ?? '',
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
    { schema: { body: forgotForm, hide: true } },
    async (request, reply) => {
      const { email = '' } = request.body as z.infer<typeof forgotForm>;
      const answer = await callInside(app, request, {
        method: 'POST',
        url: api(authRoutes.forgotPassword.path),
        json: { email },
      });
      const page = answer.status >= 400 ? 'forgotPassword' : 'checkEmail';
      const state = { ...(await basePageState(ctx, request, reply, page)), values: { email } };
      if (answer.status >= 400) {
        return renderer.send(reply, { ...state, error: pageErrorOf(answer) }, answer.status);
      }
      return renderer.send(reply, state);
    },
  );

  app.post(
    AUTH_PAGE_PATHS.newPassword,
    { schema: { body: newPasswordForm, hide: true } },
    async (request, reply) => {
      const {
        token = '',
        password = '',
        confirm = '',
      } = request.body as z.infer<typeof newPasswordForm>;
      const state = {
        ...(await basePageState(ctx, request, reply, 'newPassword')),
        values: { token },
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
