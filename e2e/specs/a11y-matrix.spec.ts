import { expectAccessible } from '../axe';
import { expectCombo, languages, prepare, test, type Combo, type Theme } from '../a11y-matrix';
import { targets } from '../a11y-targets';

/**
 * axe's full rule set on every screen and dialog of the console, one analysis per test.
 *
 * Which combinations: English in both colour schemes with every screen and dialog (2 × 35),
 * and German, French and Italian in the light scheme with every screen (3 × 18). The full
 * 8 × 35 took over half an hour on a 2-core machine, far more than the suite can give. What
 * was left out is the least informative: contrast comes from the scheme, not the language (the
 * English dark run checks it everywhere), and a dialog's texts come from the same translation
 * files as its screen's, so the languages' own risks (missing or untranslated accessible
 * names, longer labels, the html lang) show on the screens.
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
    const covered = combo.language === 'en' ? targets : targets.filter((t) => t.kind === 'screen');
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
