import { expectAccessible } from '../axe';
import { expectCombo, languages, prepare, test, type Combo, type Theme } from '../a11y-matrix';
import { targets } from '../a11y-targets';

/**
 * axe's full rule set on every screen and dialog of the console, one analysis per test.
 *
 * Which combinations: English in both colour schemes, and German, French and Italian in the
 * light scheme only, every screen and dialog in each (5 × 35 tests). The full 8 × 35 took well
 * over the ~8 minutes this suite may add on a 2-core machine. The non-English dark runs were
 * the least informative to keep: contrast comes from the scheme, not from the language (the
 * English dark run checks it on every screen and dialog), while the languages' own risks,
 * missing or untranslated accessible names, longer labels and the html lang, show in any one
 * scheme.
 */

const themes: Theme[] = ['light', 'dark'];
const combos: Combo[] = [
  ...themes.map((theme): Combo => ({ language: 'en', theme })),
  ...languages
    .filter((language) => language !== 'en')
    .map((language): Combo => ({ language, theme: 'light' })),
];

for (const combo of combos) {
  test.describe(`${combo.language}, ${combo.theme}`, () => {
    for (const target of targets) {
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
