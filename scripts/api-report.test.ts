import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PACKAGES, packageEntries } from "./api-report.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("API reports", () => {
  it("every typed entry of every library has a checked-in report, and no report outlives its entry", () => {
    const expected = PACKAGES.flatMap((name) => packageEntries(join(root, "packages", name)).map((e) => e.report));
    expect(expected).toContain("core-teams");
    for (const report of expected) expect(existsSync(join(root, "api", `${report}.api.md`)), report).toBe(true);
    const present = readdirSync(join(root, "api"))
      .filter((file) => file.endsWith(".api.md"))
      .map((file) => file.slice(0, -".api.md".length));
    expect(present.sort()).toEqual([...expected].sort());
  });
});
