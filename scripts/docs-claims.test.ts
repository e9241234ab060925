// The tests the docs name as evidence exist, with the titles the docs quote: a renamed or deleted test fails here
// instead of leaving a claim in the docs with nothing behind it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  allEvidenceProblems,
  allReferences,
  checkEvidence,
  checkReferences,
  extractReferences,
} from "./docs-claims.mjs";

describe("docs claims", () => {
  it("every test and benchmark the docs name exists, with every quoted title", () => {
    const references = allReferences();
    expect(checkReferences(references)).toEqual([]);
    // The docs do name their evidence: the reliability page alone names dozens of tests.
    expect(references.filter((reference) => reference.file === "docs/reliability.md").length).toBeGreaterThan(20);
    expect(references.filter((reference) => reference.titles.length > 0).length).toBeGreaterThan(20);
  });

  it("every marker has its Evidence entry, every entry a marker and a test, and the prose names few paths", () => {
    expect(allEvidenceProblems()).toEqual([]);
  });

  it("reports a marker without an entry, an entry without a marker or a test, a section not last, too many inline paths", () => {
    const page = [
      "# Page",
      "",
      "Sessions survive a crash [E1](#evidence). Loops are caught [E2](#evidence), again [E1](#evidence).",
      "A budget stops a run [E4](#evidence).",
      "Inline: `a/one.test.ts` and `a/two.test.ts`.",
      "",
      "## Evidence",
      "",
      '- **E1** `a/crash.test.ts` › "killed while the model streams"',
      "  and `a/more.test.ts`.",
      "- **E2** nothing named here",
      "- **E3** `a/orphan.test.ts`",
      "- **E1** `a/again.test.ts`",
      "",
      "## After",
    ].join("\n");
    expect(checkEvidence(page, "docs/page.md", { maxInline: 1 })).toEqual([
      "docs/page.md:13: a second Evidence entry E1",
      "docs/page.md:15: the Evidence section must end the page",
      "docs/page.md:4: marker E4 has no entry in the page's Evidence section",
      "docs/page.md:11: Evidence entry E2 names no test or benchmark",
      "docs/page.md:12: Evidence entry E3 is cited by no marker",
      "docs/page.md: 2 test or benchmark paths in the prose (at most 1): cite them by marker from the Evidence section",
    ]);
    // A test named in an entry is still checked for existence like any other reference.
    const references = extractReferences(page, "docs/page.md");
    expect(references.map((reference) => reference.spec)).toContain("a/crash.test.ts");
    expect(checkEvidence("Plain prose [E1](#evidence).\n", "docs/none.md")).toEqual([
      "docs/none.md:1: marker E1 has no entry in the page's Evidence section",
    ]);
  });

  const base = mkdtempSync(join(tmpdir(), "heddle-docs-claims-"));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), text);
  };

  it("reports a missing file, a missing title, an ambiguous name; accepts template titles and folder-relative paths", () => {
    write(
      "packages/a/src/guard.test.ts",
      'it("refuses a path outside", () => {});\nit(`runs with $' + "{preset}`, () => {});\n",
    );
    write("packages/b/src/guard.test.ts", 'it("other", () => {});\n');
    write("examples/x/test/cli.test.ts", 'it("prints help", () => {});\n');
    write("bench/floor.bench.mjs", "// a benchmark\n");
    write(
      "docs/page.md",
      [
        'Refuses: `packages/a/src/guard.test.ts` › "refuses a path outside" / "runs with edit".', // fine
        'Again: `guard.test.ts` › "refuses a path outside".', // bare name: the full path named above in this doc
        "Measured by `bench/floor.bench.mjs`; help by `test/cli.test.ts`.", // fine
        'Gone: `packages/a/src/gone.test.ts`; renamed: `packages/a/src/guard.test.ts` › "refuses nothing".',
        "```sh\n`packages/zzz/never.test.ts` inside a code block is not a claim\n```",
        'Wrapped: `packages/a/src/guard.test.ts` › "refuses a path',
        '  outside" and "refuses a wrapped', // the second title wraps too, and is not in the file
        '  path".',
        "",
        'Long: `packages/a/src/guard.test.ts` › "refuses a path outside" /',
        '  "refuses a path outside" /',
        '  "refuses a path outside" /',
        '  "refuses a path outside" /',
        '  "refuses a path outside" /',
        '  "refuses a path far down the paragraph".',
        "",
        'Unclosed: `packages/a/src/guard.test.ts` › "refuses a path outside',
        "",
      ].join("\n"),
    );
    write("docs/other.md", "Which one: `guard.test.ts`.\n");
    mkdirSync(join(base, "packages"), { recursive: true });
    writeFileSync(join(base, "README.md"), "");
    const references = ["docs/page.md", "docs/other.md"].flatMap((file) =>
      extractReferences(readFileSync(join(base, file), "utf8"), file),
    );
    expect(checkReferences(references, base)).toEqual([
      "docs/page.md:4: no test or benchmark matches `packages/a/src/gone.test.ts`",
      'docs/page.md:4: no test "refuses nothing" in packages/a/src/guard.test.ts',
      'docs/page.md:8: no test "refuses a wrapped path" in packages/a/src/guard.test.ts',
      'docs/page.md:12: no test "refuses a path far down the paragraph" in packages/a/src/guard.test.ts',
      "docs/page.md:19: a quoted test title that never closes",
      "docs/other.md:1: `guard.test.ts` is ambiguous (packages/a/src/guard.test.ts, packages/b/src/guard.test.ts): give its path",
    ]);
  });
});
