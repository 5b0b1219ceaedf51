import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthBoot } from '@tc/contract/auth-page';
import { expect, test } from '../fixtures';
import { signInScreen } from '../pages';

// The contract's AUTH_BOOT_ELEMENT_ID and AUTH_FORM_TOKEN_FIELD, as the page writes them.
const BOOT_ID = 'auth-boot';
const TOKEN_FIELD = '_csrf';

/**
 * Login CSRF in a real browser: a page of another origin (a local server on 127.0.0.1, the
 * console on demo.localhost) submits a form to the console's sign-in with the attacker's own
 * account and form token the moment it loads. The browser must end on the refusal page, not
 * signed in as the attacker.
 */
let attackerSite: Server;
let attackerOrigin = '';
let attackerPage = '';

test.beforeAll(() => {
  attackerSite = createServer((_request, response) =>
    response.setHeader('content-type', 'text/html; charset=utf-8').end(attackerPage),
  );
  return new Promise<void>((resolve) =>
    attackerSite.listen(0, '127.0.0.1', () => {
      attackerOrigin = `http://127.0.0.1:${(attackerSite.address() as AddressInfo).port}`;
      resolve();
    }),
  );
});
test.afterAll(() => new Promise<void>((resolve) => attackerSite.close(() => resolve())));

/** A page of the console as a script outside the browser reads it (Node cannot resolve demo.localhost). */
const pageText = (url: string, port: number) =>
  new Promise<string>((resolve, reject) => {
    const { host, pathname } = new URL(url);
    get({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });

const escapeAttribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

test('a form another site submits to the sign-in does not sign the browser in', async ({
  page,
  env,
}) => {
  // The attacker opens the sign-in page themselves, for a form token of their own.
  const html = await pageText(`${env.demoUrl}/login`, env.port);
  const start = html.indexOf(`id="${BOOT_ID}">`);
  const boot = JSON.parse(
    html.slice(html.indexOf('>', start) + 1, html.indexOf('</script>', start)),
  ) as AuthBoot;
  const fields: Record<string, string> = {
    username: env.demoAdmin.email,
    password: env.demoAdmin.password,
    [TOKEN_FIELD]: boot.state.formToken ?? '',
  };
  attackerPage =
    `<!doctype html><html><body><form id="f" method="post" action="${env.demoUrl}/login">` +
    Object.entries(fields)
      .map(
        ([name, value]) => `<input type="hidden" name="${name}" value="${escapeAttribute(value)}">`,
      )
      .join('') +
    '</form><script>document.getElementById("f").submit()</script></body></html>';

  const refused = page.waitForResponse(
    (response) =>
      response.url() === `${env.demoUrl}/login` && response.request().method() === 'POST',
  );
  await page.goto(`${attackerOrigin}/`);
  expect((await refused).status()).toBe(403);
  await expect(page.getByRole('alert')).toContainText('sent from another site');

  // Nothing of a sign-in reached the browser: no session at the identity provider, no
  // console sign-in waiting for its code.
  const names = (await page.context().cookies(env.demoUrl)).map((cookie) => cookie.name);
  expect(names.filter((name) => /^(_session|tc_console_signin)/.test(name))).toEqual([]);
  // The page is the form again, which signs in when the user sends it from here.
  await expect(signInScreen(page).email).toBeVisible();
  await expect(signInScreen(page).submit).toBeVisible();
});
