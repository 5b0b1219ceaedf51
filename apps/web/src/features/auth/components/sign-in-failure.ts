import type { TFunction } from 'i18next';
import { OAuthRequestError } from '../../../lib/oidc';
import { describeFailure } from '../../../lib/problem-text';
import { TenantMissingError } from '../api/login';

/**
 * A refused sign-in (its first step) in the interface language, met with script or posted
 * without: the OAuth error's description, or the API problem's text.
 */
export function signInFailureText(t: TFunction, error: unknown): string {
  if (error instanceof TenantMissingError) return t('signIn.tenantMissing');
  const description =
    error instanceof OAuthRequestError ? error.description : describeFailure(t, error);
  return t('signIn.failed', { message: t('signIn.authFailed', { description }) });
}
