// `search`'s own timeout given values a timer cannot hold: Infinity means no limit, the rest never fire early. That
// the timeout still stops a search: tool-limits.test.ts › "a search still running after search.timeoutMs stops with
// code timeout".
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTools } from "./default-tools.js";
import { findTool, makeTempDir, runTool } from "./test-utils.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("heddle-search-timeout-"));
  await writeFile(path.join(dir, "notes.txt"), "alpha\nneedle here\nomega\n");
});
afterEach(() => cleanup());

describe("search timeoutMs", () => {
  it.each([false, "auto"] as const)(
    "Infinity, NaN, 2^31 and 2^32 ms search normally (ripgrep %s); was: Infinity, NaN and 2^32 threw a RangeError",
    async (ripgrep) => {
      for (const timeoutMs of [Number.POSITIVE_INFINITY, Number.NaN, 2 ** 31, 2 ** 32]) {
        const tools = createDefaultTools({ workspaceRoot: dir, preset: "read-only", search: { ripgrep, timeoutMs } });
        const output = await runTool(findTool(tools, "search"), { pattern: "needle" });
        expect(output, String(timeoutMs)).toBe("notes.txt:2:needle here");
      }
    },
  );
});
