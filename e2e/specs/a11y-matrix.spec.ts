import { expectAccessible } from '../axe';
import { expectCombo, test, type Combo } from '../a11y-matrix';
import { targets } from '../a11y-targets';

/**
 * axe's full rule set on every screen and dialog of the console, one analysis per test.
 *
 * Which combinations, within what the whole suite can spend (an analysis with its page load
 * takes 10 to 20 s on a 2-core machine; all 8 × 43 would take well over half an hour):
 * - the dark scheme in English: every screen and every dialog (43), as contrast differs most
 *   there and dialogs bring colours of their own (the red Delete button failed here);
 * - German, French and Italian, light: the screens shared out between them, each screen in
 *   one of the three (22), so every screen is analysed in the light scheme too. A dialog's
 *   texts come from the same translation files as its screen's, so the languages' own risks
 *   (untranslated accessible names, longer labels, the html lang) show on the screens.
 *   English in the light scheme would repeat both: its texts are analysed in the dark scheme,
 *   and the light scheme's colours on every screen.
 * Behaviour specs analyse only states this matrix does not open (an empty list, a dialog's
 * second step, field messages), so each screen's analysis runs here and only here.
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
    for (const target of covered) {
      test(target.name, async ({ comboPage, env, seededTenant }) => {
        // One analysis of a whole screen takes seconds on a loaded 2-core machine.
        test.setTimeout(90_000);
        const page = await comboPage(combo);
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
