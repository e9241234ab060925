import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  BROWSER_SAFE,
  checkArchitecture,
  findAgentsLlmsImports,
  findBackendViolations,
  findConcernInternalsImports,
  findImportCycles,
  findLayerViolations,
  findNodeImports,
  findPlainErrors,
} from "./architecture.mjs";

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

  it("allows core's public subpaths and refuses anything deeper", () => {
    const dir = fakeRepo({
      "packages/agents/src/index.ts": 'export * from "@heddle/llms/testing";\n',
      "packages/core/src/index.ts": 'import "@heddle/agents";\n',
      "packages/core/src/other.ts": 'import "@heddle/llms/src/catalog";\n',
    });
    expect(findLayerViolations(dir)).toEqual(["packages/core/src/other.ts: deep import @heddle/llms/src/catalog"]);
  });

  it("sees require() and relative paths into another package", () => {
    const dir = fakeRepo({
      "packages/shared/src/index.ts": 'const core = require("@heddle/core");\n',
      "packages/agents/src/index.ts": 'import { x } from "../../llms/src/catalog/index.js";\nimport "./own.js";\n',
      "packages/agents/src/own.ts": "export const y = 1;\n",
    });
    expect(findLayerViolations(dir).sort()).toEqual([
      "packages/agents/src/index.ts: imports ../../llms/src/catalog/index.js, outside @heddle/agents, by a relative path",
      "packages/shared/src/index.ts: @heddle/shared may not import @heddle/core (layers point down)",
    ]);
  });

  it("refuses a package that patches another's types with declare module", () => {
    const dir = fakeRepo({
      "packages/agents/src/telemetry.ts":
        'declare module "@heddle/shared" {\n  interface AgentRuntimeConfig {\n    telemetry?: unknown;\n  }\n}\n',
    });
    expect(findLayerViolations(dir)).toEqual([
      "packages/agents/src/telemetry.ts: augments @heddle/shared with declare module (declare the field there)",
    ]);
  });
});

describe("architecture rules on the repository", () => {
  it("find nothing but the known violations in folders owned by other work", () => {
    expect(checkArchitecture(root).failures).toEqual([]);
  });
});

describe("no import circle inside a package", () => {
  it("reports a circle made of type-only imports, once, and not a diamond", () => {
    const dir = fakeRepo({
      "packages/core/src/sessions/a.ts": 'import type { B } from "./b.js";\nexport type A = B;\n',
      "packages/core/src/sessions/b.ts": 'import type { A } from "./a.js";\nexport type B = { a?: A };\n',
      "packages/core/src/tools/top.ts": 'import "./left.js";\nimport "./right.js";\n',
      "packages/core/src/tools/left.ts": 'import "./bottom.js";\n',
      "packages/core/src/tools/right.ts": 'import "./bottom.js";\n',
      "packages/core/src/tools/bottom.ts": "export const x = 1;\n",
    });
    expect(findImportCycles(dir)).toEqual([
      "import circle: packages/core/src/sessions/a.ts -> packages/core/src/sessions/b.ts -> packages/core/src/sessions/a.ts",
    ]);
  });

  it("follows a folder import to its index.ts", () => {
    const dir = fakeRepo({
      "packages/llms/src/index.ts": 'export * from "./gateway";\n',
      "packages/llms/src/gateway/index.ts": 'import { x } from "../index.js";\nexport const y = x;\n',
    });
    expect(findImportCycles(dir)).toHaveLength(1);
  });
});

describe("agents reaches llms only from the provider-form loader", () => {
  it("reports any other agents file that imports @heddle/llms", () => {
    const dir = fakeRepo({
      "packages/agents/src/resolve-model.ts": 'import { createGateway } from "@heddle/llms";\n',
      "packages/agents/src/loop.ts": 'import { catalog } from "@heddle/llms";\n',
    });
    expect(findAgentsLlmsImports(dir)).toEqual([
      "packages/agents/src/loop.ts: @heddle/agents imports @heddle/llms outside the provider-form loader",
    ]);
  });
});

describe("core concern folders import each other only through index.ts", () => {
  it("reports an import of a sibling folder's internal file", () => {
    const dir = fakeRepo({
      "packages/core/src/index.ts": 'export * from "./sessions/index.js";\n',
      "packages/core/src/sessions/index.ts": 'export * from "./runtime.js";\n',
      "packages/core/src/sessions/runtime.ts": 'import "../tools/index.js";\nimport "../tools/workspace.js";\n',
      "packages/core/src/tools/index.ts": 'export * from "./workspace.js";\n',
      "packages/core/src/tools/workspace.ts": "export const w = 1;\n",
    });
    expect(findConcernInternalsImports(dir)).toEqual([
      "packages/core/src/sessions/runtime.ts: imports packages/core/src/tools/workspace.ts, an internal of tools/ (import tools/index.ts)",
    ]);
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

describe("typed errors", () => {
  it("src throws typed errors, never a plain new Error", () => {
    expect(findPlainErrors(root)).toEqual([]);
    expect(checkArchitecture(root).failures).toEqual([]);
  });

  it("reports a plain new Error in src, and leaves tests, their helpers and comments alone", () => {
    const dir = fakeRepo({
      "packages/core/src/teams/a.ts": 'export function f() {\n  throw new Error("no code");\n}\n',
      "examples/coding-agent/src/b.ts": "export const e = () => new  Error ('x');\n",
      "packages/core/src/teams/a.test.ts": 'throw new Error("a test may");\n',
      "packages/core/src/tools/test-utils.ts": 'throw new Error("a test helper may");\n',
      "packages/llms/src/c.ts": '// never a plain new Error("x") here\nthrow new HeddleError("aborted", "typed");\n',
    });
    expect(findPlainErrors(dir).sort()).toEqual([
      "examples/coding-agent/src/b.ts:1: plain new Error( (throw a HeddleError with a catalogued code)",
      "packages/core/src/teams/a.ts:2: plain new Error( (throw a HeddleError with a catalogued code)",
    ]);
    expect(checkArchitecture(dir).failures).toContain(
      "packages/core/src/teams/a.ts:2: plain new Error( (throw a HeddleError with a catalogued code)",
    );
  });
});

describe("backends stand apart from the runtimes and from each other", () => {
  // A runtime (sessions/) with its contract, and two backends with the SQL helpers they share.
  const house = {
    "packages/core/src/sessions/index.ts":
      'export * from "./runtime.js";\nexport * from "../backends/sqlite/index.js";\n',
    "packages/core/src/sessions/runtime.ts": 'import "./store.js";\n',
    "packages/core/src/sessions/store.ts": "export interface Store {}\n",
    "packages/core/src/sessions/contract.ts": 'export * from "./store.js";\n',
    "packages/core/src/backends/sql/index.ts": 'import "../../sessions/contract.js";\n',
    "packages/core/src/backends/sqlite/index.ts": 'export * from "./store.js";\n',
    "packages/core/src/backends/sqlite/store.ts": 'import "../../sessions/contract.js";\nimport "../sql/index.js";\n',
    "packages/core/src/backends/postgres/index.ts": 'export * from "./store.js";\n',
    "packages/core/src/backends/postgres/store.ts": 'import "../../sessions/contract.js";\nimport "../sql/index.js";\n',
  };

  it("hold for the repository", () => {
    expect(findBackendViolations(root)).toEqual([]);
    expect(findConcernInternalsImports(root)).toEqual([]);
  });

  it("accept a house where backends import contracts and the shared SQL helpers only", () => {
    const dir = fakeRepo(house);
    expect(findBackendViolations(dir)).toEqual([]);
    expect(findConcernInternalsImports(dir)).toEqual([]);
    expect(findImportCycles(dir)).toEqual([]);
  });

  it("report a backend importing another backend's file, even through its index.ts", () => {
    const dir = fakeRepo({
      ...house,
      "packages/core/src/backends/postgres/store.ts": 'import "../sqlite/index.js";\nimport "../sqlite/store.js";\n',
    });
    expect(findBackendViolations(dir)).toEqual([
      "packages/core/src/backends/postgres/store.ts: imports packages/core/src/backends/sqlite/index.ts, another backend (backends stand apart)",
      "packages/core/src/backends/postgres/store.ts: imports packages/core/src/backends/sqlite/store.ts, another backend (backends stand apart)",
    ]);
  });

  it("report a backend importing a runtime (an upward arrow), and the shared helpers importing a backend", () => {
    const dir = fakeRepo({
      ...house,
      "packages/core/src/backends/sqlite/store.ts":
        'import "../../sessions/runtime.js";\nimport "../../sessions/index.js";\n',
      "packages/core/src/backends/sql/index.ts": 'import "../postgres/index.js";\n',
    });
    expect(findBackendViolations(dir).sort()).toEqual([
      "packages/core/src/backends/sql/index.ts: imports packages/core/src/backends/postgres/index.ts, another backend (backends stand apart)",
      "packages/core/src/backends/sqlite/store.ts: imports packages/core/src/sessions/index.ts, outside the backends (a backend imports only a contract.ts)",
      "packages/core/src/backends/sqlite/store.ts: imports packages/core/src/sessions/runtime.ts, outside the backends (a backend imports only a contract.ts)",
    ]);
    // Through sessions/index.ts, which re-exports the backend, the arrow closes a circle too.
    expect(findImportCycles(dir).filter((c) => c.includes("sessions/index.ts"))).toHaveLength(1);
  });

  it("report a contract that reaches a backend", () => {
    const dir = fakeRepo({
      ...house,
      "packages/core/src/sessions/store.ts": 'import "../backends/postgres/index.js";\nexport interface Store {}\n',
    });
    expect(findBackendViolations(dir)).toEqual([
      "packages/core/src/sessions/contract.ts: reaches packages/core/src/backends/postgres/index.ts, a backend (a contract is below them)",
    ]);
  });

  it("report a runtime importing a backend's internal file instead of its index.ts", () => {
    const dir = fakeRepo({
      ...house,
      "packages/core/src/sessions/runtime.ts": 'import "../backends/sqlite/store.js";\n',
    });
    expect(findConcernInternalsImports(dir)).toEqual([
      "packages/core/src/sessions/runtime.ts: imports packages/core/src/backends/sqlite/store.ts, an internal of backends/sqlite/ (import backends/sqlite/index.ts)",
    ]);
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
  it("@heddle/llms ships the Anthropic and OpenAI clients bundled: a Node and a browser variant, no vendor types", async () => {
    const dist = join(root, "packages/llms/dist");
    const chunks = readdirSync(dist).filter((file) => file.endsWith(".js"));
    const code = chunks.map((file) => readFileSync(join(dist, file), "utf8")).join("\n");
    // The library's chunks load the bundled files through package.json "imports"; only @google/genai stays a peer.
    expect(code).not.toMatch(/(from\s*|import\()["'](@anthropic-ai\/sdk|openai)["']/);
    expect(code).toMatch(/import\(["']#vendor\/anthropic["']\)/);
    expect(code).toMatch(/import\(["']#vendor\/openai["']\)/);
    for (const types of ["index.d.ts", "testing/index.d.ts"])
      expect(readFileSync(join(dist, types), "utf8"), types).not.toMatch(
        /from ["'](@anthropic-ai\/sdk|openai)|import\(["'](@anthropic-ai\/sdk|openai)/,
      );
    // A browser bundler takes the browser variant: nothing Node-only, the dynamic imports followed.
    expect(await findNodeImports(join(dist, "index.js"))).toEqual([]);
    // Node takes the Node variant, which is the vendor's client.
    const script =
      'const a = await import("#vendor/anthropic"); const o = await import("#vendor/openai"); console.log(import.meta.resolve("#vendor/anthropic").endsWith("anthropic.node.js"), typeof a.Anthropic, typeof o.OpenAI);';
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dist, encoding: "utf8" });
    expect(run.stdout.trim()).toBe("true function function");
    const notices = readFileSync(join(dist, "vendor/THIRD_PARTY_NOTICES"), "utf8");
    for (const name of ["@anthropic-ai/sdk@", "openai@"]) expect(notices).toContain(name);
  }, 60_000);

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
  }, 60_000);

  it("every built entry exports exactly what its source does (a stale dist fails here)", async () => {
    for (const entry of ["shared/src/index.ts", "llms/src/index.ts", "agents/src/index.ts", "core/src/index.ts"]) {
      const source = await import(join(root, "packages", entry));
      const built = await import(join(root, "packages", entry.replace("/src/", "/dist/").replace(/\.ts$/, ".js")));
      expect(Object.keys(built).sort(), entry).toEqual(Object.keys(source).sort());
    }
  }, 60_000);

  it("@heddle/core names its front door explicitly and every concern has its subpath", async () => {
    const source = readFileSync(join(root, "packages/core/src/index.ts"), "utf8");
    expect(source).not.toMatch(/export \*/);
    const core = await import(join(root, "packages/core/dist/index.js"));
    // The names DESIGN.md and the docs use from the root entry.
    for (const name of [
      "createSession",
      "openSession",
      "SessionRuntime",
      "SqliteSessionStore",
      "MemorySessionStore",
      "defaultSessionDbPath",
      "createDefaultTools",
      "defaultToolPolicies",
      "FileCheckpointer",
      "summarizingCompaction",
      "truncatingCompaction",
      "createHookEngine",
      "loadPlugins",
      "SessionConflictError",
      "SessionDatabaseError",
      "PostgresSessionStore",
      "createSpawnAgentTool",
      "AgentTeamManager",
      "TeammateRunner",
      "InMemoryTeamMailbox",
      "SqliteTeamMailbox",
      "createTeamTools",
      "connectMcpServers",
      "loadMcpConfig",
      "createAgentHost",
      "AgentHost",
    ])
      expect(typeof core[name], name).toBe("function");
    const pkg = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"));
    const expected = {
      sessions: "openSession",
      tools: "createBashTool",
      hooks: "parseHookSettings",
      safety: "createSafetyHooks",
      compaction: "Compactor",
      checkpoints: "restoreFileCheckpoints",
      guidance: "createTodoReminderHooks",
      plugins: "loadPlugins",
      mcp: "connectMcpServers",
      teams: "AgentTeamManager",
      host: "createAgentHost",
      testing: "runTranscriptStoreConformance",
    };
    for (const [subpath, name] of Object.entries(expected)) {
      expect(pkg.exports[`./${subpath}`]?.import, subpath).toBe(`./dist/${subpath}/index.js`);
      const mod = await import(join(root, "packages/core", pkg.exports[`./${subpath}`].import));
      expect(typeof mod[name], `${subpath}: ${name}`).toBe("function");
    }
  });

  it("every entry also loads with require() (Node 20.19+ loads ES modules that way), not only with import", () => {
    // By package name, from a workspace package that depends on all four: the exports maps decide.
    const names = ["@heddle/shared", "@heddle/llms", "@heddle/agents", "@heddle/core", "@heddle/core/sessions"];
    const script = names.map((name) => `if (!Object.keys(require(${JSON.stringify(name)})).length) process.exit(3);`);
    const run = spawnSync(process.execPath, ["-e", script.join("\n")], {
      cwd: join(root, "examples", "recipes"),
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  }, 60_000); // a node process loading four packages: more than the default 5 s on a busy machine
});
