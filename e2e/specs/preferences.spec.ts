import { expect, test, type Page } from '../fixtures';
import { expectSignedIn, openSignedIn } from '../pages';

/** Relative luminance of the body background: dark themes are well below 0.2. */
const bodyLuminance = (page: Page) =>
  page.evaluate(() => {
    const color = getComputedStyle(document.body).backgroundColor;
    const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? ['255', '255', '255']).map(Number);
    const lin = (c: number) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  });

test.describe('preferences (layout shell: dark mode, language)', () => {
  test.beforeEach(async ({ page, env }) => {
    await openSignedIn(page, { url: env.demoUrl, name: 'demo', admin: env.demoAdmin });
    await expectSignedIn(page, '/home');
  });

  test('dark mode survives a reload', async ({ page }) => {
    const toggle = page
      .getByRole('switch', { name: /dark mode/i })
      .or(page.getByRole('checkbox', { name: /dark mode/i }));
    await expect(toggle).not.toBeChecked();
    expect(await bodyLuminance(page)).toBeGreaterThan(0.5);
    await toggle.check();
    await expect(toggle).toBeChecked();
    await expect.poll(() => bodyLuminance(page)).toBeLessThan(0.2);

    await page.reload();
    await expect(toggle).toBeChecked();
    expect(await bodyLuminance(page)).toBeLessThan(0.2);
  });

  test('the language survives a reload', async ({ page }) => {
    await expect(page.locator('html')).toHaveAttribute('lang', /^en/);
    const language = page
      .getByRole('combobox', { name: /language/i })
      .or(page.getByRole('button', { name: /language/i }));
    await language.first().click();
    await page
      .getByRole('option', { name: /deutsch/i })
      .or(page.getByRole('menuitem', { name: /deutsch/i }))
      .first()
      .click();
    await expect(page.locator('html')).toHaveAttribute('lang', /^de/);

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', /^de/);
    // The shell itself is German now: the sign-out button no longer reads "Logout".
    await expect(page.getByRole('button', { name: /^log ?out$/i })).toHaveCount(0);
  });
});
