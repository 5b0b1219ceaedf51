import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** One plain closing line for CI, like the API tests': "e2e: N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  private readonly outcomes = new Map<string, string>();

  onTestEnd(test: TestCase, _result: TestResult) {
    this.outcomes.set(test.id, test.outcome());
  }

  onEnd(result: FullResult) {
    if (this.outcomes.size === 0 && result.status === 'passed') return;
    const count = (...kinds: string[]) =>
      [...this.outcomes.values()].filter((outcome) => kinds.includes(outcome)).length;
    const flaky = count('flaky');
    console.log(
      `e2e: ${count('expected', 'flaky')} passed, ${count('unexpected')} failed, ${count('skipped')} skipped` +
        (flaky ? ` (${flaky} flaky)` : '') +
        (result.status === 'passed' ? '' : ` — ${result.status}`),
    );
  }
}
