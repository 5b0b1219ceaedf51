import { z } from 'zod';
import { SECOND_FACTOR_METHODS } from './sign-in-step-paths';

// The constants live in a module without the schema library, which the sign-in pages' script
// imports alone; they are also exported from here.
export {
  SECOND_FACTOR_METHODS,
  SIGN_IN_STEP_PATHS,
  type SecondFactorMethod,
} from './sign-in-step-paths';

/**
 * What the hosted sign-in page's steps answer (`/login-actions/{realm}/{uid}/…`). After the
 * password the page either goes on to the application (`done`), asks for a second factor,
 * or takes the user through enrolment because the tenant requires a second factor.
 */
export const signInStepSchema = z.discriminatedUnion('next', [
  z.object({
    next: z.literal('done'),
    /** Where the browser goes next: back into the authorization request. */
    redirectTo: z.string(),
    /** Only after an enrolment: ten recovery codes, shown once. */
    recoveryCodes: z.array(z.string()).optional(),
  }),
  z.object({
    next: z.literal('second-factor'),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  }),
  z.object({ next: z.literal('enrol') }),
]);
export type SignInStep = z.infer<typeof signInStepSchema>;
