// The packages as a user installs them: the public packages are packed (`pnpm pack`, as `pnpm publish` packs them),
// npm installs the tarballs into a fresh project outside the workspace, and each package README's runnable example
// runs there, taken from the README itself. No vendor SDK is installed at first: an agent with its own model works
// without one, the Anthropic and OpenAI clients ship bundled in @heddle/llms, and Gemini's missing client fails with
// the install command, which is then run as written.
// The coding agent, `@heddle/code`, is installed last (it depends on the vendor clients) and its offline demo runs
// through `npx`, as the README tells a new user. Runs after `pnpm build` (`pnpm test` builds first).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../packages/llms/src/testing/index.js";
import { extractSnippets, runSnippet, type Snippet } from "./docs-snippets.mjs";
import { createProject, localBetterSqlitePrebuild, npmInstall } from "./fresh-project.mjs";
import { type PackedPackage, packPublicPackages, root, tarballProblems } from "./pack.mjs";

const VENDOR_SDKS = ["openai", "@anthropic-ai/sdk", "@google/genai"];
const CODING_AGENT = "@heddle/code";
let sqliteEnv: Record<string, string> = {};
const work = mkdtempSync(join(tmpdir(), "heddle-packed-")); // tarballs and the better-sqlite3 prebuild
const project = createProject("heddle-user-"); // the user's project, outside the workspace
/** Per provider, the package spec the missing-client error told the user to install. */
const installs: Record<string, string> = {};
let packed: PackedPackage[] = [];
let server: MockProviderServer;
const timings: Record<string, number> = {};

/** The README's one runnable ("ts run") block. */
function readmeExample(readme: string): Snippet {
  const runnable = extractSnippets(readFileSync(join(root, readme), "utf8"), readme).filter((s) => s.run);
  expect(runnable, `${readme} has one \`ts run\` block`).toHaveLength(1);
  return runnable[0]!;
}

/** Runs an ES module in the project, as `node file.mjs` would. */
function runInProject(name: string, code: string, args: string[] = []) {
  const file = join(project, name);
  writeFileSync(file, code);
  return spawnSync(process.execPath, [...args, file], { cwd: project, encoding: "utf8", timeout: 30_000 });
}

/**
 * Runs an ES module in the project without blocking this process, whose mock server must answer it
 * (`runInProject`'s spawnSync would hold the server's event loop until the child timed out).
 */
function runAgainstServer(name: string, code: string) {
  return runSnippet({ file: name, line: 1, run: true, code }, { dir: project });
}

/** An OpenAI Chat Completions stream with one text delta. */
function chatText(text: string) {
  return {
    events: [
      { choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: "stop" }] },
      { choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } },
    ],
  };
}

/** A Gemini stream with one text part. */
function geminiText(text: string) {
  const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 3 };
  return {
    events: [{ candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }], usageMetadata }],
  };
}

/** An Anthropic Messages stream with one text block. */
function anthropicText(text: string) {
  const usage = { input_tokens: 20, output_tokens: 5 };
  return {
    events: [
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } },
      { type: "message_stop" },
    ],
  };
}

beforeAll(async () => {
  let started = performance.now();
  packed = packPublicPackages(join(work, "tarballs"));
  timings.pack = performance.now() - started;
  const sqlite = localBetterSqlitePrebuild(join(work, "prebuilds"));
  const zod = JSON.parse(readFileSync(join(root, "packages/shared/package.json"), "utf8")).devDependencies.zod;
  started = performance.now();
  // zod is @heddle/shared's peer for createTool, which the shared README uses; nothing else is added.
  const libraries = packed.filter((entry) => entry.name !== CODING_AGENT);
  npmInstall(project, [...libraries.map((entry) => entry.tarball), `zod@${zod}`], { env: sqlite.env });
  sqliteEnv = sqlite.env;
  timings.install = performance.now() - started;
  server = await startMockProviderServer();
}, 240_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
  console.log(
    `packed-install timings (ms): ${JSON.stringify(timings, (_, v) => (typeof v === "number" ? Math.round(v) : v))}`,
  );
  // Removing an installed project (node_modules and all) can take more than vitest's 10 s on a loaded machine.
}, 120_000);

describe("the packed packages, installed by npm in a project outside the workspace", () => {
  it("pnpm pack wrote real versions for workspace:* and put every exported file in the tarballs", () => {
    expect(packed.map((entry) => entry.name)).toEqual([
      "@heddle/shared",
      "@heddle/llms",
      "@heddle/agents",
      "@heddle/core",
      CODING_AGENT,
    ]);
    expect(tarballProblems(packed)).toEqual([]);
    const core = packed.find((entry) => entry.name === "@heddle/core")!;
    expect(core.manifest.dependencies["@heddle/agents"]).toBe(packed[2]!.manifest.version);
    const code = packed.find((entry) => entry.name === CODING_AGENT)!;
    expect(code.manifest.dependencies["@heddle/core"]).toBe(core.manifest.version);
    expect(code.files).toEqual(expect.arrayContaining(["dist/cli.js", "sample-project/src/cart.js"]));
    // The check itself refuses what `npm pack` would have shipped.
    const leftover = { ...core, manifest: { ...core.manifest, dependencies: { "@heddle/agents": "workspace:*" } } };
    expect(tarballProblems([leftover])).toEqual(['@heddle/core: dependencies.@heddle/agents is still "workspace:*"']);
    const noLicense = { ...core, files: core.files.filter((file) => file !== "LICENSE") };
    expect(tarballProblems([noLicense])).toEqual(["@heddle/core: LICENSE is not in the tarball"]);
  });

  it("installs no vendor SDK package: Anthropic's and OpenAI's ship bundled in @heddle/llms, @google/genai is a peer", () => {
    expect(existsSync(join(project, "node_modules/@heddle/core/dist/index.js"))).toBe(true);
    for (const name of VENDOR_SDKS) expect(existsSync(join(project, "node_modules", name)), name).toBe(false);
  });

  for (const readme of ["packages/shared/README.md", "packages/agents/README.md", "packages/core/README.md"]) {
    it(`${readme}'s example runs from the installed tarballs, with no vendor SDK`, async () => {
      const run = await runSnippet(readmeExample(readme), { dir: project });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
      if (readme.includes("agents")) expect(run.stdout).toContain("completed end_turn 2 + 3 = 5");
      if (readme.includes("core")) expect(run.stdout).toContain("You asked me to add ', world' to notes.txt.");
    }, 60_000);
  }

  it("require() loads the packages on this Node; where it cannot (before 20.19), the error says ES module", () => {
    const ok = runInProject(
      "require.cjs",
      'console.log(Object.keys(require("@heddle/agents")).includes("createAgent"));',
    );
    expect({ status: ok.status, stdout: ok.stdout.trim(), stderr: ok.stderr }).toEqual({
      status: 0,
      stdout: "true",
      stderr: "",
    });
    // Node 20.0 to 20.18 do not load ES modules with require(); this flag gives their behaviour on a newer Node.
    const old = runInProject("require.cjs", 'require("@heddle/agents");', ["--no-experimental-require-module"]);
    expect(old.status).not.toBe(0);
    expect(old.stderr).toContain("ERR_REQUIRE_ESM");
    expect(old.stderr).toMatch(/require\(\) of ES Module .*@heddle\/agents\/dist\/index\.js .* not supported/);
    expect(old.stderr).toContain("dynamic import()");
  }, 60_000);

  it("with no vendor SDK installed, anthropic and openai-chat run against the mock; gemini fails naming the npm i command", async () => {
    server.enqueue("anthropic", anthropicText("From the bundled Anthropic client."));
    server.enqueue("openai-chat", chatText("From the bundled OpenAI client."));
    const baseUrls = Object.fromEntries(
      (["anthropic", "openai-chat", "gemini"] as const).map((family) => [family, server.baseUrl(family)]),
    );
    const script = `
import { createAgent } from "@heddle/agents";
const out = {};
const models = { anthropic: "claude-sonnet-4-6", "openai-chat": "gpt-4o", gemini: "gemini-2.5-flash" };
const baseUrls = ${JSON.stringify(baseUrls)};
for (const [providerId, modelId] of Object.entries(models)) {
  const agent = createAgent({ providerId, modelId, apiKey: "test-key", baseUrl: baseUrls[providerId], maxIterations: 1 });
  const result = await agent.run("hi");
  out[providerId] = { status: result.status, text: result.outputText, message: result.error?.message };
}
console.log(JSON.stringify(out));
`;
    const run = await runAgainstServer("vendor-clients", script);
    expect(run.stderr).toBe("");
    const out = JSON.parse(run.stdout);
    expect(out.anthropic).toMatchObject({ status: "completed", text: "From the bundled Anthropic client." });
    expect(out["openai-chat"]).toMatchObject({ status: "completed", text: "From the bundled OpenAI client." });
    expect(out.gemini.status).toBe("failed");
    expect(out.gemini.message).toContain("npm i @google/genai@^2.32.0");
    expect(server.requests.map((request) => request.family)).toEqual(["anthropic", "openai-chat"]);
    installs.gemini = /npm i (\S+)$/.exec(out.gemini.message)![1]!;
  }, 60_000);

  it("the root README's Anthropic example and the llms README's run as written; after the npm i gemini's error named, gemini runs", async () => {
    const quickstart = extractSnippets(readFileSync(join(root, "README.md"), "utf8"), "README.md").find((s) => s.run)!;
    server.enqueue("anthropic", anthropicText("It is 18°C and sunny in Lisbon."));
    const run = await runSnippet(quickstart, {
      dir: project,
      env: { ANTHROPIC_BASE_URL: server.baseUrl("anthropic"), ANTHROPIC_API_KEY: "test-key" },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.stdout).toBe("completed It is 18°C and sunny in Lisbon.\n");
    const llms = await runSnippet(readmeExample("packages/llms/README.md"), { dir: project });
    expect({ status: llms.status, stderr: llms.stderr }).toEqual({ status: 0, stderr: "" });
    expect(llms.stdout).toContain("text-delta");
    expect(llms.stdout).toContain("there!");

    const started = performance.now();
    npmInstall(project, [installs.gemini!]);
    timings.installGemini = performance.now() - started;
    server.enqueue("gemini", geminiText("Olá from Gemini."));
    const gemini = await runAgainstServer(
      "gemini",
      `import { createAgent } from "@heddle/agents";
const agent = createAgent({ providerId: "gemini", modelId: "gemini-2.5-flash", apiKey: "test-key", baseUrl: ${JSON.stringify(server.baseUrl("gemini"))}, maxIterations: 1 });
const result = await agent.run("hi");
console.log(result.status, result.outputText);
`,
    );
    expect({ status: gemini.status, stderr: gemini.stderr, stdout: gemini.stdout.trim() }).toEqual({
      status: 0,
      stderr: "",
      stdout: "completed Olá from Gemini.",
    });
  }, 120_000);

  it("npx @heddle/code --demo runs the offline demo from the installed tarball, no key and no clone", () => {
    const code = packed.find((entry) => entry.name === CODING_AGENT)!;
    let started = performance.now();
    npmInstall(project, [code.tarball], { env: sqliteEnv });
    timings.installCode = performance.now() - started;
    started = performance.now();
    const demo = spawnSync("npx", ["--no-install", CODING_AGENT, "--demo"], {
      cwd: project,
      encoding: "utf8",
      timeout: 90_000,
      env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" },
    });
    timings.demo = performance.now() - started;
    expect({ status: demo.status, stderr: demo.stderr }).toEqual({ status: 0, stderr: "" });
    expect(demo.stdout).toContain("DEMO — a scripted demo model, not a real one");
    expect(demo.stdout).toContain("Checked independently: `node --test test/` passes in the demo workspace.");
    // Both commands the package installs are the same program.
    for (const bin of ["heddle", "heddle-code"]) {
      const help = spawnSync(join(project, "node_modules", ".bin", bin), ["--help"], { encoding: "utf8" });
      expect({ bin, status: help.status }).toEqual({ bin, status: 0 });
      expect(help.stdout).toContain("package @heddle/code");
    }
  }, 240_000);
});
