import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BROWSER_SAFE, findLayerViolations, findNodeImports } from "./architecture.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

function fakeRepo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "heddle-arch-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe("layer rule", () => {
  it("holds for the repository", () => {
    expect(findLayerViolations(root)).toEqual([]);
  });

  it("reports an import that points up and a deep import", () => {
    const dir = fakeRepo({
      "packages/shared/src/index.ts": 'import { x } from "@heddle/core";\nexport const y = x;\n',
      "packages/agents/src/index.ts": 'export * from "@heddle/llms/src/gateway";\n',
      "packages/core/src/index.ts": 'import "@heddle/agents";\n',
    });
    const violations = findLayerViolations(dir);
    expect(violations).toHaveLength(2);
    expect(violations[0]).toContain("@heddle/shared may not import @heddle/core");
    expect(violations[1]).toContain("deep import @heddle/llms/src/gateway");
  });
});

describe("browser safety", () => {
  it.each(BROWSER_SAFE)(
    "@heddle/%s bundles for the browser without Node imports",
    async (pkg) => {
      const problems = await findNodeImports(join(root, "packages", pkg, "src", "index.ts"), {
        alias: {
          "@heddle/shared": join(root, "packages/shared/src/index.ts"),
          "@heddle/llms": join(root, "packages/llms/src/index.ts"),
        },
      });
      expect(problems).toEqual([]);
    },
    60_000,
  );

  it("fails a package that imports a Node builtin, even lazily", async () => {
    const dir = fakeRepo({
      "src/index.ts": 'export async function read() { const fs = await import("node:fs"); return fs; }\n',
      "src/other.ts": 'import { join } from "path";\nexport const p = join("a", "b");\n',
      "src/entry.ts": 'export * from "./index";\nexport * from "./other";\n',
    });
    const problems = await findNodeImports(join(dir, "src/entry.ts"));
    expect(problems.map((p: string) => p.split(" ")[0]).sort()).toEqual(["node:fs", "path"]);
  });
});

describe("built entries", () => {
  it("@heddle/shared loads no zod at run time (zod is the caller's, for createTool)", () => {
    const built = readFileSync(join(root, "packages/shared/dist/index.js"), "utf8");
    expect(built).not.toMatch(/from\s*["']zod["']|import\(["']zod["']\)/);
  });

  it("every package imports from its built entry (dist)", async () => {
    const shared = await import(join(root, "packages/shared/dist/index.js"));
    expect(typeof shared.createTool).toBe("function");
    const llms = await import(join(root, "packages/llms/dist/index.js"));
    const llmsTesting = await import(join(root, "packages/llms/dist/testing/index.js"));
    expect(typeof llmsTesting.createScriptedModel).toBe("function");
    const agents = await import(join(root, "packages/agents/dist/index.js"));
    const core = await import(join(root, "packages/core/dist/index.js"));
    const coreTesting = await import(join(root, "packages/core/dist/testing/index.js"));
    for (const mod of [llms, agents, core, coreTesting]) expect(Object.keys(mod).length).toBeGreaterThan(0);
  });
});
