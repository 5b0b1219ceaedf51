import type { Database } from '../../db/database';
import { OAuthError } from '../oauth-error';
import type { Principal } from '../principal';
import type { SecretBox } from './secret-box';
import { mustEnrol, useSecondFactorCode, type SignInFacts } from './sign-in-facts';

/** The password grant's refusals after a right password, in words for the client's developer. */
export const PASSWORD_GRANT_REFUSALS = {
  codeMissing: "Second factor required: send the authenticator app's code in the totp parameter",
  codeWrong: 'Invalid authenticator code',
  passkeyOnly:
    'This account signs in with a passkey: sign in on the sign-in page, which asks for it',
  enrolFirst:
    'This account must set up a second factor first: sign in on the sign-in page to set one up',
} as const;

const refused = (description: string) => new OAuthError(400, 'invalid_grant', description);

/**
 * The second factor of Keycloak's direct grant: the `totp` parameter holds the authenticator
 * app's code (or a recovery code). A passkey cannot be given here, and a second factor the
 * tenant requires cannot be set up here: both are the sign-in page's.
 */
export async function requirePasswordGrantFactor(
  deps: { db: Database; box: SecretBox; publicUrl: string },
  principal: Principal,
  facts: SignInFacts,
  input: { totp: string | undefined; acceptLanguage: string | undefined },
): Promise<void> {
  if (facts.totp) {
    if (!input.totp) throw refused(PASSWORD_GRANT_REFUSALS.codeMissing);
    const user = { id: principal.userId, tenantId: principal.tenantId };
    if (!(await useSecondFactorCode(deps, user, input.totp, input.acceptLanguage))) {
      throw refused(PASSWORD_GRANT_REFUSALS.codeWrong);
    }
    return;
  }
  if (facts.passkeys) throw refused(PASSWORD_GRANT_REFUSALS.passkeyOnly);
  if (mustEnrol(facts, principal.permissions)) throw refused(PASSWORD_GRANT_REFUSALS.enrolFirst);
}
