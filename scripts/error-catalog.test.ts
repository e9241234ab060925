import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HEDDLE_ERROR_CODES } from "../packages/shared/src/error-codes.js";
import {
  CATALOG_FILE,
  checkCodes,
  ERRORS_DOC,
  findCodeLiterals,
  loadErrorCatalog,
  renderErrorTable,
  root,
  tableIn,
  withTable,
} from "./error-catalog.mjs";

function fakeRepo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "heddle-errors-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("the error catalog", () => {
  it("docs/errors.md lists every code of the catalog, as generated", async () => {
    const catalog = await loadErrorCatalog();
    // The script reads the same object the package exports (and HeddleErrorCode is made from).
    expect(catalog).toEqual(HEDDLE_ERROR_CODES);
    const markdown = readFileSync(join(root, ERRORS_DOC), "utf8");
    const table = tableIn(markdown);
    expect(table, `${ERRORS_DOC} is out of date: run pnpm docs:errors`).toBe(renderErrorTable(catalog));
    for (const code of Object.keys(catalog)) expect(table).toContain(`| \`${code}\` |`);
  });

  it("a code added to the catalog without regenerating the docs makes the table stale", async () => {
    const catalog = await loadErrorCatalog();
    const markdown = readFileSync(join(root, ERRORS_DOC), "utf8");
    const grown = { ...catalog, brand_new: { meaning: "New.", classes: ["HeddleError"], packages: ["core"] } };
    expect(tableIn(markdown)).not.toBe(renderErrorTable(grown));
    expect(tableIn(withTable(markdown, renderErrorTable(grown)))).toBe(renderErrorTable(grown));
  });

  it("every code thrown in src is in the catalog, and every catalog code is used", async () => {
    const catalog = await loadErrorCatalog();
    expect(checkCodes(catalog)).toEqual([]);
    // The scan sees the codes thrown in src: one per kind of site, each from the file that throws it.
    const found = findCodeLiterals();
    expect(found).toContainEqual({ code: "team_invalid_input", file: "packages/core/src/teams/mailbox.ts" });
    expect(found).toContainEqual({ code: "unknown_provider", file: "packages/llms/src/gateway-errors.ts" });
    expect(found).toContainEqual({ code: "session_invalid_input", file: "packages/core/src/sessions/errors.ts" });
  });

  it("names a code thrown in src that the catalog does not list, a catalog code nothing throws, a class that is gone", () => {
    const dir = fakeRepo({
      [CATALOG_FILE]: "export const HEDDLE_ERROR_CODES = {};\n",
      "packages/core/src/a.ts": 'throw new TeamError("team_made_up", "x");\n',
      "packages/core/src/b.ts": 'class B extends HeddleError { constructor() { super("other_made_up", "y"); } }\n',
      "packages/core/src/c.ts": 'export type CCode = "listed" | "union_made_up";\n',
      "packages/core/src/d.ts": 'throw new MissingDependencyError("ioredis", "RedisTeamMailbox");\n',
      "packages/core/src/e.test.ts": 'throw new TeamError("only_in_a_test", "x");\n',
      "packages/core/src/errors.ts": "export class X extends HeddleError {}\n",
    });
    const catalog = {
      listed: { meaning: "Listed.", classes: ["X"], packages: ["core"] },
      stale: { meaning: "Thrown nowhere.", classes: ["X", "RenamedAway"], packages: ["core"] },
    };
    expect(checkCodes(catalog, dir)).toEqual([
      'packages/core/src/a.ts: code "team_made_up" is not in packages/shared/src/error-codes.ts',
      'packages/core/src/b.ts: code "other_made_up" is not in packages/shared/src/error-codes.ts',
      'packages/core/src/c.ts: code "union_made_up" is not in packages/shared/src/error-codes.ts',
      'packages/shared/src/error-codes.ts: code "stale" is raised nowhere in src',
      "packages/shared/src/error-codes.ts: class RenamedAway is declared nowhere in src",
    ]);
  });
});
