// Totals the reports every test runner wrote (vitest and Playwright JSON) into one line,
// `N passed, N failed[, N skipped]`, after listing each skipped test with its reason.
// Usage: node .ci/summary.mjs <exit status of npm test>
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;
const notes = [];

const vitestReport = 'test-results/vitest.json';
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
} else {
  notes.push('vitest wrote no report (it did not run)');
}

const playwrightReport = 'test-results/playwright.json';
if (existsSync(playwrightReport)) {
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
  const visit = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'skipped') continue;
        const reason = test.annotations?.find((a) => a.type === 'skip')?.description ?? 'no reason given';
        notes.push(`skipped [${test.projectName}] ${[...path, spec.title].join(' › ')}: ${reason}`);
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...path, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, [suite.title]);
} else {
  notes.push('Playwright wrote no report (it did not run)');
}

if (status !== 0 && failed === 0) {
  // Type-check, lint or format failed, or a runner crashed: not a test, but not a pass either.
  notes.push(`npm test exited with status ${status} outside any test; see its output above`);
  failed += 1;
}

for (const note of notes) console.log(`ci: ${note}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
