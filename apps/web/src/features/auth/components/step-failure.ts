import type { TFunction } from 'i18next';
import { OAuthRequestError } from '../../../lib/oidc';
import { describeFailure } from '../../../lib/problem-text';
import { SignInStepError } from '../../../lib/sign-in-steps';
import { TenantMissingError } from '../api/login';

/** What the failed step asked for: the refusal of a wrong answer reads differently for each. */
export type StepKind = 'code' | 'recovery-code' | 'passkey' | 'enrol';

const WRONG: Record<StepKind, string> = {
  code: 'signInSteps.errors.wrongCode',
  'recovery-code': 'signInSteps.errors.wrongRecoveryCode',
  enrol: 'signInSteps.errors.wrongCode',
  passkey: 'signInSteps.errors.passkeyRefused',
};

/**
 * A failed step in the interface language. The server refuses in the OAuth shape: a wrong
 * code or an unknown passkey is 401 (or `invalid_grant`), too many tries 429, a sign-in
 * request that expired 400 `invalid_request`. The browser refuses a passkey prompt that was
 * closed or timed out with NotAllowedError.
 */
export function stepFailureText(t: TFunction, error: unknown, kind: StepKind): string {
  if (error instanceof TenantMissingError) return t('signIn.tenantMissing');
  if (error instanceof SignInStepError) {
    if (error.error === 'passkeys_unavailable') return t('signInSteps.errors.passkeysUnavailable');
    // A passkey alone whose authenticator did not verify the user is one factor, not two.
    if (error.error === 'passkey_not_verified') return t('signInSteps.errors.passkeyNotVerified');
    if (error.status === 429) return t('signInSteps.errors.tooMany');
    if (error.status === 401 || error.status === 403 || error.error === 'invalid_grant') {
      return t(WRONG[kind]);
    }
    if (error.status === 400 && error.error === 'invalid_request') {
      return t('signInSteps.errors.expired');
    }
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return t('signInSteps.errors.passkeyCancelled');
  }
  const description =
    error instanceof OAuthRequestError ? error.description : describeFailure(t, error);
  return t('signInSteps.errors.failed', { description });
}
