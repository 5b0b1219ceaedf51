import { everyLanguage, exactly, expectCombo, prepare, text } from '../a11y-matrix';
import { expectAccessible } from '../axe';
import { expect, test } from '../fixtures';
import { registerApp, startApplications, startSignIn } from '../relying-party';

/**
 * The consent page of a third-party application in every language, in a browser of that
 * language, with axe's full rule set: English in the dark scheme, the others light.
 */

let stopApplications: () => Promise<void>;
test.beforeAll(async () => {
  stopApplications = await startApplications();
});
test.afterAll(() => stopApplications());

for (const combo of everyLanguage) {
  const { language } = combo;
  const say = (key: string) => exactly(text(language, key));

  test.describe(`consent page in ${language}`, () => {
    test.use({ locale: language });

    test(`consent page (${language}, ${combo.theme}): no serious axe violation`, async ({
      page,
      env,
    }) => {
      await prepare(page, combo);
      const app = await registerApp(env);
      await startSignIn(page, app);
      await page.getByLabel(say('auth.email')).fill(env.demoAdmin.email);
      await page.getByLabel(say('auth.password')).fill(env.demoAdmin.password);
      await page.getByRole('button', { name: say('signIn.submit') }).click();
      const title = text(language, 'consent.title', { application: `Portal ${app.clientId}` });
      await expect(page.getByRole('heading', { level: 1, name: exactly(title) })).toBeVisible();
      await expect(page.getByRole('button', { name: say('consent.allow') })).toBeVisible();
      await expectCombo(page, combo);
      await expectAccessible(page, `consent (${language}, ${combo.theme})`);
    });
  });
}
