// The tests the docs name as evidence exist, with the titles the docs quote: a renamed or deleted test fails here
// instead of leaving a claim in the docs with nothing behind it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allReferences, checkReferences, extractReferences } from "./docs-claims.mjs";

describe("docs claims", () => {
  it("every test and benchmark the docs name exists, with every quoted title", () => {
    const references = allReferences();
    expect(checkReferences(references)).toEqual([]);
    // The docs do name their evidence: the reliability page alone names dozens of tests.
    expect(references.filter((reference) => reference.file === "docs/reliability.md").length).toBeGreaterThan(20);
    expect(references.filter((reference) => reference.titles.length > 0).length).toBeGreaterThan(20);
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
