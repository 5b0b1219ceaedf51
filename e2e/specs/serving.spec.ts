import { expect, test } from '../fixtures';

/** The built server serves the built console (apps/server/src/http/static-web.ts). */
test.describe('serving the console', () => {
  test('client routes answer the page on reload; assets are immutable', async ({
    request,
    env,
  }) => {
    const page = await request.get(`${env.adminUrl}/dashboard/users`, {
      headers: { accept: 'text/html' },
    });
    expect(page.status()).toBe(200);
    expect(page.headers()['cache-control']).toBe('no-cache');
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, 'index.html loads a hashed script').toBeTruthy();
    const asset = await request.get(`${env.adminUrl}${script}`);
    expect(asset.status()).toBe(200);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('unknown API paths stay problem+json 404s', async ({ request, env }) => {
    const response = await request.get(`${env.adminUrl}/api/v1.0/nothing`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  });

  test('a deep link with a token opens in the browser', async ({ page, env }) => {
    const response = await page.goto(`${env.demoUrl}/newpassword?token=abc`);
    expect(response?.status()).toBe(200);
    // The server renders the page, titled by its heading and the tenant, with the link's token.
    await expect(page).toHaveTitle('Set new password · demo');
    await expect(page.locator('input[name="token"]')).toHaveValue('abc');
  });
});
