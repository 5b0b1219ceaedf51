import type { RecoveryCodes, SecurityPolicy, TotpSetup } from '@tc/contract/security';
import { Secret, TOTP } from 'otpauth';
import { expect, type Page } from '@playwright/test';
import type { Api } from './api-client';

/**
 * Helpers of the sign-in steps after the password (second factor, enrolment, passkey): codes
 * of an authenticator app computed as the app would, the steps' controls by the console's
 * English words, and a virtual authenticator for passkeys.
 */

/**
 * The app's code `steps` periods from now. The server takes one period either side and never
 * the same period twice, so an enrolment confirmed with the previous period's code leaves the
 * current one for the sign-in.
 */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(secret),
  });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Six digits no period the server accepts now (previous, current, next) gives. */
export function wrongTotpCode(secret: string): string {
  const accepted = new Set([-1, 0, 1].map((steps) => totpCode(secret, steps)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!accepted.has(candidate)) return candidate;
  }
}

/** Sets up the authenticator app through the account API, as the account page does. */
export async function enrolTotpByApi(
  api: Api,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await api<TotpSetup>('POST', '/account/mfa/totp/setup');
  const { recoveryCodes } = await api<RecoveryCodes>('POST', '/account/mfa/totp/confirm', {
    code: totpCode(secret, -1),
  });
  return { secret, recoveryCodes };
}

/** The tenant's second-factor policy, the rest of its policy kept. */
export async function setMfaPolicy(api: Api, mfaPolicy: SecurityPolicy['mfaPolicy']) {
  const policy = await api<SecurityPolicy>('GET', '/settings/security');
  await api('PUT', '/settings/security', { ...policy, mfaPolicy });
}

export const secondFactorStep = (page: Page) => ({
  heading: page.getByRole('heading', { name: 'Two-step verification' }),
  code: page.getByLabel(/^Authentication code/),
  recoveryCode: page.getByLabel(/^Recovery code/),
  useRecoveryCode: page.getByRole('button', { name: 'Use a recovery code' }),
  verify: page.getByRole('button', { name: /^(Verify|Verifying\.\.\.)$/ }),
});

export const enrolStep = (page: Page) => ({
  heading: page.getByRole('heading', { name: 'Set up two-step verification' }),
  qrCode: page.getByRole('img', { name: 'QR code that adds your account to an authenticator app' }),
  secret: page.getByTestId('totp-secret'),
  code: page.getByLabel(/^Code from the app/),
  confirm: page.getByRole('button', { name: /^(Confirm|Confirming\.\.\.)$/ }),
});

export const recoveryCodesStep = (page: Page) => ({
  heading: page.getByRole('heading', { name: 'Save your recovery codes' }),
  codes: page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'),
  continue: page.getByRole('button', { name: 'Continue' }),
});

/** The secret the enrolment step shows, as the app would take it. */
export async function shownSecret(page: Page): Promise<string> {
  const secret = enrolStep(page).secret;
  await expect(secret).toBeVisible();
  return (await secret.inputValue()).replace(/\s+/g, '');
}

/**
 * Chromium's virtual authenticator (DevTools' WebAuthn domain) stands in for the user's phone
 * or security key: a platform authenticator that keeps discoverable credentials and verifies
 * the user without a prompt.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}
