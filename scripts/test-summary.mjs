// Prints vitest's result as one plain closing line ("N passed, N failed, N skipped") for CI.
import { readFileSync } from 'node:fs';

const [file, label] = process.argv.slice(2);
const report = JSON.parse(readFileSync(file, 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(
  `${label}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`,
);
process.exit(report.numFailedTests > 0 || report.numTotalTests === 0 ? 1 : 0);
