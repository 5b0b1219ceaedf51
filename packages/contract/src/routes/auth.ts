import { z } from 'zod';
import {
  acceptedResponseSchema,
  accountDoneResponseSchema,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
  verifyEmailRequestSchema,
} from '../account';
import { googleNonceSchema, googleSignInSchema } from '../google';
import { accountHeadersSchema, tenantIdHeaderSchema } from '../headers';
import { meResponseSchema, tokenResponseSchema } from '../identity';
import { defineRoute } from '../route';

/**
 * The signed-in user, and the account routes reachable before sign-in. Every account route
 * answers 404 for an unknown tenant and 429 when its address asks too often.
 */
export const authRoutes = {
  me: defineRoute({
    method: 'GET',
    path: '/auth/me',
    response: meResponseSchema,
    permission: 'authenticated',
    summary: 'The signed-in user',
  }),
  /** Answers the token response itself, not an envelope, as the token endpoint does. */
  google: defineRoute({
    method: 'POST',
    path: '/auth/google',
    headers: z.object({ 'tenant-id': tenantIdHeaderSchema }),
    body: googleSignInSchema,
    response: tokenResponseSchema,
    permission: 'public',
    problems: [401, 403, 404],
    summary: 'Sign in (or sign up) with a Google ID token; answers with our tokens',
  }),
  /** Before Google's button is shown: the nonce its ID token must carry (POST: it stores one). */
  googleNonce: defineRoute({
    method: 'POST',
    path: '/auth/google/nonce',
    headers: z.object({ 'tenant-id': tenantIdHeaderSchema }),
    response: googleNonceSchema,
    permission: 'public',
    problems: [404, 429],
    summary: 'A nonce for the next Google sign-in of this browser',
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/auth/forgot-password',
    headers: accountHeadersSchema,
    body: forgotPasswordRequestSchema,
    response: acceptedResponseSchema,
    status: 202,
    permission: 'public',
    problems: [404, 429],
    summary: 'Sends a password reset link, if the address has an account',
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/auth/reset-password',
    headers: accountHeadersSchema,
    body: resetPasswordRequestSchema,
    response: accountDoneResponseSchema,
    permission: 'public',
    problems: [404, 429],
    summary: 'Sets a password with a reset or invitation link',
  }),
  signup: defineRoute({
    method: 'POST',
    path: '/auth/signup',
    headers: accountHeadersSchema,
    body: signupRequestSchema,
    response: acceptedResponseSchema,
    status: 202,
    permission: 'public',
    // 403: the tenant does not take sign-ups.
    problems: [403, 404, 429],
    summary: 'Creates an account that must confirm its e-mail address',
  }),
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/auth/verify-email',
    headers: accountHeadersSchema,
    body: verifyEmailRequestSchema,
    response: accountDoneResponseSchema,
    permission: 'public',
    problems: [404, 429],
    summary: 'Confirms an e-mail address with a verification link',
  }),
};
