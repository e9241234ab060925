export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
}
export declare function summarizeReport(report: unknown): TestCounts;
export declare function runPasses(counts: TestCounts, options: { ci: boolean }): boolean;
