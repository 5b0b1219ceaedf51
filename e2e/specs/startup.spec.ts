import { expect, test } from '../fixtures';
import { signInScreen } from '../pages';

test.describe('start-up (tenant check)', () => {
  test('a known tenant host shows "Verifying tenant..." and then the sign-in screen', async ({
    page,
    env,
  }) => {
    // Hold the identify call so the progress state can be seen, then let it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1.0/tenants/identify*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${env.demoUrl}/`);
    await expect(page.getByText('Verifying tenant...')).toBeVisible();
    await expect(page.getByRole('progressbar')).toBeVisible();
    release();
    await expect(signInScreen(page).submit).toBeVisible();
    await expect(signInScreen(page).email).toBeVisible();
    await expect(page.getByText('Verifying tenant...')).toBeHidden();
  });

  test('the super administrator host shows the sign-in screen', async ({ page, env }) => {
    await page.goto(`${env.adminUrl}/`);
    await expect(signInScreen(page).submit).toBeVisible();
  });

  test('an unknown host shows "Error: Tenant not identified."', async ({ page, env }) => {
    await page.goto(`http://nobody.localhost:${env.port}/`);
    await expect(page.getByText('Error: Tenant not identified.')).toBeVisible();
    await expect(signInScreen(page).submit).toHaveCount(0);
  });
});
