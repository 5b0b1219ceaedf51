import { z } from 'zod';
import { singleLineText } from './text';

/**
 * Google sign-in (docs/identity-provider.md): the ID token that Google Identity Services hands the browser
 * (`credential` in its callback). The server verifies it and answers with our own tokens,
 * in the token endpoint's shape (`tokenResponseSchema`); it never answers with a password.
 */
export const googleSignInSchema = z
  .object({
    // A Google ID token is about 1 KB; the cap keeps a junk body from reaching the verifier.
    credential: singleLineText({ error: 'google.credential_required' })
      .trim()
      .min(1, 'google.credential_required')
      .max(8192, 'google.credential_too_long'),
  })
  .meta({ id: 'GoogleSignIn' });
export type GoogleSignIn = z.infer<typeof googleSignInSchema>;

/**
 * The nonce of a Google sign-in about to start, for Google Identity Services' `nonce`: the ID
 * token must carry it, once, from the browser it was given to (its browser-id cookie).
 */
export const googleNonceSchema = z
  .object({ nonce: z.string().meta({ description: '43 base64url characters' }) })
  .meta({ id: 'GoogleNonce' });
export type GoogleNonce = z.infer<typeof googleNonceSchema>;
