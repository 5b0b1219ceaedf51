import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AUTH_FORM_TOKEN_FIELD } from '@tc/contract/auth-page';
import { isCrossSite } from '../../http/cross-site';
import { AppError } from '../../http/problem';
import { formField } from './form-fields';

/**
 * The browser's secret the pages' form tokens are made from (HttpOnly: no script needs it).
 * SameSite=Lax: a page opened from a link elsewhere still finds it, a post from elsewhere never.
 */
const FORM_COOKIE = 'tc_form';

/** What a refused form is answered with: its page, saying it came from elsewhere or expired. */
export const refusedForm = () => new AppError(403, 'form.cross_site');

/** The library's refusals of a form token (none, or not of this browser's secret). */
export const isFormTokenRefusal = (error: FastifyError) =>
  error.code === 'FST_CSRF_MISSING_SECRET' || error.code === 'FST_CSRF_INVALID_TOKEN';

/**
 * Login CSRF (OWASP's CSRF cheat sheet): every form these pages render posts a token of
 * @fastify/csrf-protection, an HMAC over a secret kept in the browser's form cookie, which a
 * page of another site can neither read nor send; and a post that the browser says comes from
 * another origin (Fetch Metadata, Origin) is refused before its token is even looked at. Every
 * POST of this scope is guarded, so each page added here (consent, …) is too.
 */
export async function registerFormGuard(app: FastifyInstance) {
  await app.register(fastifyCookie);
  await app.register(fastifyCsrfProtection, {
    cookieKey: FORM_COOKIE,
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: 'auto' },
    getToken: (request) => formField(request.body, AUTH_FORM_TOKEN_FIELD) || undefined,
  });
  // After the route's own checks of its address, so a refused page is shown for a valid one.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    if (isCrossSite(request)) return done(refusedForm());
    app.csrfProtection(request, reply, done);
  });
}

/** The page's form token, made for this browser (its cookie set on the first page). */
export const formTokenOf = (reply: FastifyReply) => reply.generateCsrf();
