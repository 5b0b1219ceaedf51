import { expect, test } from '../fixtures';
import {
  navigation,
  openSignIn,
  refreshResponse,
  signIn,
  signInScreen,
  openSignedIn,
} from '../pages';
import { enrolStep, enrolTotpByApi } from '../sign-in-steps';

/**
 * The tenant's sign-in security settings against the real server: an administrator (tenant:write)
 * changes and saves them, a member who only reads them (tenant:read) sees them read-only.
 */
test.describe('settings: sign-in security', () => {
  test('an administrator saves the policy; it is there after a reload', async ({
    page,
    freshTenant,
  }) => {
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    await openSignedIn(page, tenant);
    // With a second factor the administrator's session outlives the stricter policy saved
    // below, so the reload refreshes it and shows the settings again (without one, the
    // refresh is refused: the test after this one).
    await enrolTotpByApi(tenant.api);
    await navigation(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    const policy = page.getByRole('radiogroup', { name: 'Second factor' });
    await expect(policy.getByRole('radio', { name: 'Optional' })).toBeChecked();
    await policy.getByRole('radio', { name: 'Required for administrators' }).check();
    await page.getByRole('spinbutton', { name: /^Minimum password length/ }).fill('12');
    await page.getByRole('switch', { name: 'Require a special character' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Sign-in security saved.' }),
    ).toBeVisible();

    await page.reload();
    await expect(policy.getByRole('radio', { name: 'Required for administrators' })).toBeChecked();
    await expect(page.getByRole('spinbutton', { name: /^Minimum password length/ })).toHaveValue(
      '12',
    );
    await expect(
      page.getByRole('switch', { name: 'Require a special character' }),
    ).not.toBeChecked();
    await expect(page.getByRole('switch', { name: /^Refuse common passwords/ })).toBeChecked();
  });

  test('an administrator without a second factor who requires one is taken to enrolment by the next refresh', async ({
    page,
    freshTenant,
  }) => {
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    await openSignedIn(page, tenant);
    await navigation(page).getByRole('link', { name: 'Settings' }).click();
    await page
      .getByRole('radiogroup', { name: 'Second factor' })
      .getByRole('radio', { name: 'Required for administrators' })
      .check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Sign-in security saved.' }),
    ).toBeVisible();

    // On loading, the console takes its access token with the stored refresh token.
    const refreshed = refreshResponse(page);
    await page.reload();
    // Refused (invalid_grant; the console leaves the page at once, so its body is gone).
    expect((await refreshed).status()).toBe(400);
    await expect(signInScreen(page).submit).toBeVisible();

    await openSignIn(page, tenant.url);
    await signIn(page, tenant.admin);
    await expect(enrolStep(page).heading).toBeVisible();
    await expect(enrolStep(page).qrCode).toBeVisible();
  });

  test('a member who holds tenant:read only sees the settings read-only', async ({
    page,
    freshTenant,
  }) => {
    test.setTimeout(90_000);
    const tenant = await freshTenant();
    const reader = await tenant.readOnlyUser();
    await openSignedIn(page, tenant, '/home', reader);
    await navigation(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    await expect(page.getByText(/Changing them needs the permission tenant:write/)).toBeVisible();
    const radios = page.getByRole('radiogroup', { name: 'Second factor' }).getByRole('radio');
    await expect(radios).toHaveCount(3);
    for (const radio of await radios.all()) await expect(radio).toBeDisabled();
    await expect(page.getByRole('spinbutton', { name: /^Minimum password length/ })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  });
});
