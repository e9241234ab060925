import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const here = new URL(".", import.meta.url).pathname;

/** The runtime (non-type) imports between this package's source files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
    const source = readFileSync(join(here, file), "utf8");
    const deps = [...source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+"\.\/([^"]+)\.js"/gms)].map(
      (m) => `${m[1]}.ts`,
    );
    graph.set(file, deps);
  }
  return graph;
}

describe("package structure", () => {
  it("has no import circle between its modules", () => {
    const graph = importGraph();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      for (const dep of graph.get(file) ?? []) {
        if (path.includes(dep)) cycles.push([...path.slice(path.indexOf(dep)), dep].join(" -> "));
        else visit(dep, [...path, dep]);
      }
    };
    for (const file of graph.keys()) visit(file, [file]);
    expect(cycles).toEqual([]);
  });

  it("bundles the zod/mini schemas it uses: the built entry imports no zod and the package depends on none", () => {
    const built = readFileSync(join(here, "../dist/index.js"), "utf8");
    expect(built).not.toMatch(/from\s*["']zod(\/mini)?["']|import\(["']zod/);
    const pkg = JSON.parse(readFileSync(join(here, "../package.json"), "utf8"));
    expect(pkg.dependencies.zod).toBeUndefined();
  });
});
