import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Every WCAG 2.0–2.2 A/AA rule axe has, and its best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * One rule left out for one element, where the markup is a third-party widget's and our
 * code cannot change it. `target` is axe's selector of the node, as a failure prints it.
 */
export interface AxeException {
  rule: string;
  target: string | RegExp;
  /** Why the widget cannot be fixed from here; read by whoever meets the exception. */
  why: string;
}

const matches = (target: string | RegExp, selector: string) =>
  typeof target === 'string' ? selector === target : target.test(selector);

/**
 * No serious or critical violation of axe's full rule set on the screen as it is now. A
 * failure lists each rule, its impact, the offending elements and axe's advice.
 */
export async function expectAccessible(
  page: Page,
  screen: string,
  exceptions: readonly AxeException[] = [],
) {
  // Only violations are read: collecting every passing node of a large grid costs seconds.
  // axe runs in the page itself (`axe.run`, which walks same-origin frames on its own): the
  // default runs it in parts and joins them in a new blank page, a renderer started and axe's
  // source compiled a second time for every analysis, a quarter of the matrix's CPU. The
  // console has no frames from another origin, the one case the parts are for.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      ...v,
      nodes: v.nodes.filter((node) => {
        const selector = node.target.join(' ');
        return !exceptions.some((e) => e.rule === v.id && matches(e.target, selector));
      }),
    }))
    .filter((v) => v.nodes.length > 0);
  const report = blocking
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .map((n) => `  ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, ' ')}`)
          .join('\n'),
    )
    .join('\n');
  expect(
    blocking.map((v) => v.id),
    `${screen}:\n${report}`,
  ).toEqual([]);
}

/**
 * Waits until every dialog and menu is fully opaque: axe reads the colours of one still fading
 * in (or of a menu fading out behind a dialog) as low contrast.
 */
export async function settled(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const layers = document.querySelectorAll('.MuiDialog-container, .MuiPopover-paper');
        return [...layers].every((el) => getComputedStyle(el).opacity === '1');
      }),
    )
    .toBe(true);
}
