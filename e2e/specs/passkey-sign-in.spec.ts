import type { Passkey } from '@tc/contract/security';
import { callApi } from '../api-client';
import { expect, test, type Page } from '../fixtures';
import { expectSignedIn, logoutButton, openSignIn, signInScreen } from '../pages';
import { addVirtualAuthenticator } from '../sign-in-steps';

/**
 * Registers a passkey from the page, as the account page would: the server's options, the
 * browser's credential, and its attestation back to the server. The page must be on the
 * tenant's address, whose domain is the relying party.
 */
function registerPasskey(page: Page, accessToken: string): Promise<Passkey> {
  return page.evaluate(async (token) => {
    const authorization = `Bearer ${token}`;
    const asked = await fetch('/api/v1.0/account/passkeys/options', {
      method: 'POST',
      headers: { authorization },
    });
    if (!asked.ok) throw new Error(`passkey options answered ${asked.status}`);
    const { options } = ((await asked.json()) as { data: { options: unknown } }).data;
    const credential = (await navigator.credentials.create({
      publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(
        options as PublicKeyCredentialCreationOptionsJSON,
      ),
    })) as PublicKeyCredential;
    const saved = await fetch('/api/v1.0/account/passkeys', {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Virtual authenticator', response: credential.toJSON() }),
    });
    if (!saved.ok) throw new Error(`registration answered ${saved.status}: ${await saved.text()}`);
    return ((await saved.json()) as { data: Passkey }).data;
  }, accessToken);
}

const passkeyButton = (page: Page) =>
  page.getByRole('button', { name: /^(Sign in with a passkey|Waiting for your passkey\.\.\.)$/ });

test.describe('sign-in with a passkey', () => {
  test('a registered passkey signs in without a password; once removed, it is refused', async ({
    page,
    env,
    freshTenant,
  }) => {
    // A fresh tenant, a user with a password, a registration and two passkey sign-ins.
    test.setTimeout(120_000);
    const tenant = await freshTenant();
    const user = await tenant.readOnlyUser();
    // The user's token for the account routes, taken while the password alone signs in.
    const accessToken = await user.token();
    await addVirtualAuthenticator(page);

    await openSignIn(page, tenant.url);
    const passkey = await registerPasskey(page, accessToken);
    expect(passkey.name).toBe('Virtual authenticator');

    await passkeyButton(page).click();
    await expectSignedIn(page, '/home');
    // No password was typed.
    await logoutButton(page).click();
    await expect(signInScreen(page).submit).toBeVisible();
    await expect(signInScreen(page).password).toHaveValue('');

    await callApi(env.adminUrl, {
      method: 'DELETE',
      path: `/account/passkeys/${passkey.id}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    // The authenticator still holds the credential; the account no longer knows it.
    await passkeyButton(page).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'This passkey was not accepted.' }),
    ).toBeVisible();
    await expect(passkeyButton(page)).toBeEnabled();
    await expect(page).not.toHaveURL(/\/home$/);
  });
});
