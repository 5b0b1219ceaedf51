import { expectAccessible } from '../axe';
import { expectCombo, prepare, test, type Combo } from '../a11y-matrix';
import { targets } from '../a11y-targets';

/**
 * axe's full rule set on every screen and dialog of the console, one analysis per test.
 *
 * Which combinations, within what the whole suite can spend (an analysis with its page load
 * takes 10 to 20 s on a 2-core machine; all 8 × 40 would take well over half an hour):
 * - the dark scheme in English: every screen and every dialog (40), as contrast differs most
 *   there and dialogs bring colours of their own (the red Delete button failed here);
 * - German, French and Italian, light: the screens shared out between them, each screen in
 *   one of the three (19), so every screen is analysed in the light scheme too. A dialog's
 *   texts come from the same translation files as its screen's, so the languages' own risks
 *   (untranslated accessible names, longer labels, the html lang) show on the screens.
 *   English in the light scheme would repeat both: its texts are analysed in the dark scheme,
 *   and the light scheme's colours on every screen.
 */

const screens = targets.filter((target) => target.kind === 'screen');
const others = ['de', 'fr', 'it'] as const;
const plan: Array<{ combo: Combo; covered: typeof targets }> = [
  { combo: { language: 'en', theme: 'dark' }, covered: targets },
  ...others.map((language, index) => ({
    combo: { language, theme: 'light' } as Combo,
    covered: screens.filter((_, position) => position % others.length === index),
  })),
];

for (const { combo, covered } of plan) {
  test.describe(`${combo.language}, ${combo.theme}`, () => {
    // A browser in the language: the sign-in pages are rendered by the server in the
    // browser's language until one is chosen.
    test.use({ locale: combo.language });
    for (const target of covered) {
      test(target.name, async ({ page, env, seededTenant }) => {
        // One analysis of a whole screen takes seconds on a loaded 2-core machine.
        test.setTimeout(90_000);
        await prepare(page, combo);
        await target.open(page, { combo, env, tenant: seededTenant });
        await expectCombo(page, combo);
        await expectAccessible(
          page,
          `${target.name} (${combo.language}, ${combo.theme})`,
          target.exceptions,
        );
      });
    }
  });
}
