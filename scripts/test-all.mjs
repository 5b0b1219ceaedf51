// `npm test`: every phase in turn, each timed, then one summary: the phases against their
// budgets (docs/testing.md), the ten slowest test files, any file over a minute, and the
// closing line "N passed, N failed". A phase that fails still lets the later ones run, so one
// run reports everything; the exit code is non-zero if any phase failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = `${root}test-results`;
const SLOW_FILE_S = 60;

/**
 * Phases in order; a list of phases runs side by side (lint and types are one process each,
 * so together they use both cores). `json` is where a test phase leaves its per-file results.
 */
const PHASES = [
  [
    { name: 'lint', run: 'eslint --max-warnings 0 . && prettier --check .' },
    {
      name: 'types',
      run: 'tsc -p tsconfig.json --noEmit && tsc -p apps/web/tsconfig.json --noEmit',
    },
  ],
  { name: 'build', run: 'node scripts/build-once.mjs' },
  vitestPhase('server on PGlite', 'pglite', 2),
  // Waits on PostgreSQL more than on its own CPU: a third worker fills those waits.
  vitestPhase('server on PostgreSQL', 'postgres', 3),
  vitestPhase('console components', 'web', 2),
  {
    name: 'browser',
    run: 'playwright test',
    json: 'test-results/e2e.json',
    kind: 'playwright',
  },
];

function vitestPhase(name, project, workers) {
  const json = `test-results/vitest-${project}.json`;
  return {
    name,
    run: `vitest run --project ${project} --maxWorkers=${workers} --reporter=default --reporter=json --outputFile.json=${json}`,
    json,
    kind: 'vitest',
  };
}

/** Phase budgets in seconds, read from the table in docs/testing.md ("| phase | m:ss |"). */
function budgets() {
  const text = readFileSync(`${root}docs/testing.md`, 'utf8');
  const found = new Map();
  for (const match of text.matchAll(/^\| ([a-zA-Z ]+?) +\| +(\d+):(\d\d) +\|/gm)) {
    found.set(match[1], Number(match[2]) * 60 + Number(match[3]));
  }
  return found;
}

/**
 * CPU seconds (user and system) of every child process this one has waited for, from
 * /proc/self/stat: a phase's processes and theirs, once they have exited. Where there is no
 * /proc (not Linux), null.
 */
function childrenCpuSeconds() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in its parentheses; cutime and
    // cstime are fields 16 and 17 of the whole line, in clock ticks (100 a second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

function runPhase(phase) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(phase.run, {
      cwd: root,
      shell: true,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${root}node_modules/.bin:${process.env.PATH}` },
    });
    child.on('exit', (code) => resolve({ code, seconds: (Date.now() - started) / 1000 }));
  });
}

/** Per-file durations and test counts from a phase's JSON report. */
function readReport(phase) {
  const file = `${root}${phase.json}`;
  if (!phase.json || !existsSync(file)) return { files: [], passed: 0, failed: 0, skipped: 0 };
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (phase.kind === 'vitest') {
    return {
      files: report.testResults.map((result) => ({
        file: result.name.replace(root, ''),
        seconds: (result.endTime - result.startTime) / 1000,
      })),
      passed: report.numPassedTests,
      failed: report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0),
      skipped: report.numPendingTests + report.numTodoTests,
    };
  }
  // Playwright: a spec file's time is the sum of its tests' (they run on two workers).
  const files = new Map();
  const counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
  const visit = (suite) => {
    for (const child of suite.suites ?? []) visit(child);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const time = test.results.reduce((sum, result) => sum + result.duration, 0) / 1000;
        files.set(spec.file, (files.get(spec.file) ?? 0) + time);
        if (test.status === 'skipped') counts.skipped += 1;
        else if (test.status === 'unexpected') counts.failed += 1;
        else counts.passed += 1;
        if (test.status === 'flaky') counts.flaky += 1;
      }
    }
  };
  for (const suite of report.suites ?? []) visit(suite);
  return {
    files: [...files].map(([file, seconds]) => ({ file: `e2e/${file}`, seconds })),
    ...counts,
  };
}

const minutes = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

mkdirSync(RESULTS, { recursive: true });
for (const phase of PHASES.flat()) if (phase.json) rmSync(`${root}${phase.json}`, { force: true });
const limits = budgets();
const outcomes = [];
const started = Date.now();
for (const step of PHASES) {
  const together = [step].flat();
  console.log(`\n=== ${together.map((phase) => phase.name).join(' + ')} ===`);
  const cpuBefore = childrenCpuSeconds();
  const results = await Promise.all(together.map(runPhase));
  const cpuAfter = childrenCpuSeconds();
  // Phases side by side share one figure: the processes of each cannot be told apart here.
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  together.forEach((phase, i) =>
    outcomes.push({ phase, ...results[i], cpu: i === 0 ? cpu : null, report: readReport(phase) }),
  );
}
const total = (Date.now() - started) / 1000;

console.log('\n=== summary ===');
console.log(`${'phase'.padEnd(22)} ${'time'.padStart(6)} ${'CPU'.padStart(6)}`);
for (const { phase, code, seconds, cpu } of outcomes) {
  const budget = limits.get(phase.name);
  const over =
    budget !== undefined && seconds > budget ? `  OVER its budget of ${minutes(budget)}` : '';
  const failed = code === 0 ? '' : `  FAILED (exit code ${code})`;
  const cpuTime = cpu === null ? '' : minutes(cpu);
  console.log(
    `${phase.name.padEnd(22)} ${minutes(seconds).padStart(6)} ${cpuTime.padStart(6)}${over}${failed}`,
  );
}
const totalBudget = limits.get('total');
const totalCpu = outcomes.reduce((n, { cpu }) => (cpu === null ? n : n + cpu), 0);
console.log(
  `${'total'.padEnd(22)} ${minutes(total).padStart(6)} ${minutes(totalCpu).padStart(6)}` +
    (totalBudget !== undefined && total > totalBudget
      ? `  OVER its budget of ${minutes(totalBudget)}`
      : ''),
);
const files = outcomes.flatMap(({ phase, report }) =>
  report.files.map((file) => ({ ...file, phase: phase.name })),
);
files.sort((a, b) => b.seconds - a.seconds);
console.log('\nten slowest test files:');
for (const file of files.slice(0, 10)) {
  console.log(`  ${file.seconds.toFixed(1).padStart(6)} s  ${file.file} (${file.phase})`);
}
const slow = files.filter((file) => file.seconds > SLOW_FILE_S);
for (const file of slow) {
  console.log(`OVER ${SLOW_FILE_S} s: ${file.file} (${file.phase}), ${file.seconds.toFixed(1)} s`);
}
const sum = (key) => outcomes.reduce((n, { report }) => n + (report[key] ?? 0), 0);
// A check that is not a test (lint, types, build), or a test phase that ended without its
// report, counts as one failure.
const failedChecks = outcomes.filter(
  ({ code, report }) => code !== 0 && report.failed === 0,
).length;
const skipped = sum('skipped');
const flaky = sum('flaky');
if (flaky) console.log(`\n${flaky} passed only on a retry`);
// The closing line alone, as CI reads it: "N passed, N failed", then ", N skipped".
console.log(
  `\n${sum('passed')} passed, ${sum('failed') + failedChecks} failed` +
    (skipped ? `, ${skipped} skipped` : ''),
);
process.exit(outcomes.some(({ code }) => code !== 0) ? 1 : 0);
