// Turns vitest's JSON report into the counts of the plain CI line "N passed, N failed, N skipped".
// Kept apart from test.mjs so its rules are tested on real vitest reports (scripts/test-summary.test.ts).

/**
 * Counts a vitest JSON report. A file that fails as a whole (it does not load, or a `beforeAll` throws) counts as
 * failed: its tests that never ran are failures, not "skipped", so the summary line cannot hide a broken suite.
 */
export function summarizeReport(report) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    // A failure of the file itself (vitest gives it a message): it did not load, or a hook like beforeAll threw.
    const fileFailed = file.status === "failed" && (tests.length === 0 || Boolean(file.message));
    if (fileFailed && tests.length === 0) failed += 1;
    for (const test of tests) {
      if (test.status === "passed") passed += 1;
      else if (test.status === "failed") failed += 1;
      else if (fileFailed) failed += 1;
      else skipped += 1;
    }
  }
  return { passed, failed, skipped };
}

/** Whether a run with these counts passes. In CI (`CI=true`) a skipped test fails the run: nothing may hide there. */
export function runPasses({ passed, failed, skipped }, { ci }) {
  if (failed > 0 || passed === 0) return false;
  return !(ci && skipped > 0);
}
