import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import type { PluginSetupResult } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../tools/test-utils.js";
import { loadPlugins } from "./load-plugins.js";

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("heddle-plugins-"));
});
afterEach(() => cleanup());

const tool = (name: string, answer: string) =>
  `{ name: "${name}", description: "d", inputSchema: { type: "object" }, execute: () => "${answer}" }`;

async function pluginFile(file: string, source: string): Promise<string> {
  await writeFile(path.join(dir, file), source);
  return file;
}

describe("loadPlugins", () => {
  it("loads default and named exports and passes the setup context", async () => {
    await pluginFile(
      "a.mjs",
      `export default { name: "alpha", setup: (ctx) => ({ tools: [${tool("greet", "hi")}], hooks: {}, seen: ctx.metadata.root }) };`,
    );
    await pluginFile(
      "b.mjs",
      `export const plugin = { name: "beta", setup: () => ({ tools: [${tool("wave", "o/")}] }) };`,
    );
    const result = await loadPlugins(["a.mjs", "b.mjs"], { baseDir: dir, metadata: { root: "/ws" } });
    expect(result.failures).toEqual([]);
    expect(result.plugins.map((plugin) => plugin.name)).toEqual(["alpha", "beta"]);
    const setup = (await result.plugins[0]!.setup!({ agentId: "x", metadata: {} })) as { seen?: string };
    expect(setup.seen).toBe("/ws");
  });

  it("isolates a plugin that throws on import, in setup, or exports nothing usable", async () => {
    await pluginFile("broken.mjs", `throw new Error("bad import");`);
    await pluginFile("setup.mjs", `export default { name: "boom", setup() { throw new Error("setup failed"); } };`);
    await pluginFile("shape.mjs", `export default 42;`);
    await pluginFile("ok.mjs", `export default { name: "ok", setup: () => ({ tools: [${tool("fine", "ok")}] }) };`);
    const result = await loadPlugins(["broken.mjs", "setup.mjs", "shape.mjs", "missing.mjs", "ok.mjs"], {
      baseDir: dir,
    });
    expect(result.plugins.map((plugin) => plugin.name)).toEqual(["ok"]);
    expect(result.failures.map((f) => [path.basename(f.path), f.stage, f.name])).toEqual([
      ["broken.mjs", "import", undefined],
      ["setup.mjs", "setup", "boom"],
      ["shape.mjs", "shape", undefined],
      ["missing.mjs", "import", undefined],
    ]);
    expect(result.failures[0]!.error.message).toBe("bad import");
    expect(result.failures[2]!.error.message).toMatch(/exports no plugin/);
  });

  it("refuses a plugin file without a setup function, even one that gives its tools directly", async () => {
    await pluginFile("direct.mjs", `export default { name: "direct", tools: [${tool("fine", "ok")}] };`);
    const result = await loadPlugins(["direct.mjs"], { baseDir: dir });
    expect(result.plugins).toEqual([]);
    expect(result.failures.map((f) => [path.basename(f.path), f.stage])).toEqual([["direct.mjs", "shape"]]);
    expect(result.failures[0]!.error.message).toMatch(/has no `setup` function/);
  });

  it("namespaces a tool whose name is reserved or taken by an earlier plugin", async () => {
    await pluginFile(
      "one.mjs",
      `export default { name: "one", setup: () => ({ tools: [${tool("search", "1")}, ${tool("lint", "1")}] }) };`,
    );
    await pluginFile("two.mjs", `export default { name: "two.x", setup: () => ({ tools: [${tool("lint", "2")}] }) };`);
    const result = await loadPlugins(["one.mjs", "two.mjs"], { baseDir: dir, reservedToolNames: ["search"] });
    expect(result.loaded.map((entry) => entry.renamedTools)).toEqual([
      { search: "one__search" },
      { lint: "two_x__lint" },
    ]);
    const tools = await Promise.all(
      result.plugins.map(
        async (plugin) => ((await plugin.setup!({ agentId: "a", metadata: {} })) as PluginSetupResult).tools!,
      ),
    );
    expect(tools.flat().map((t) => t.name)).toEqual(["one__search", "lint", "two_x__lint"]);
  });

  it("gives plugins an AgentRuntime can run", async () => {
    await pluginFile("p.mjs", `export default { name: "p", setup: () => ({ tools: [${tool("ping", "pong")}] }) };`);
    const { plugins } = await loadPlugins(["p.mjs"], { baseDir: dir });
    const model = createScriptedModel([{ toolCalls: [{ id: "c1", name: "ping", input: {} }] }, { text: "done" }]);
    const result = await createAgent({ model, plugins }).run("go");
    expect(result.status).toBe("completed");
    expect(JSON.stringify(model.requests[1]!.messages)).toContain("pong");
  });
});

describe("loadPlugins hardening", () => {
  it("rejects a tool whose name a model API would not accept, and the other plugins still load", async () => {
    await pluginFile(
      "bad.mjs",
      `export default { name: "bad", setup: () => ({ tools: [${tool("bad name/../x", "x")}, ${tool("fine", "y")}] }) };`,
    );
    await pluginFile(
      "good.mjs",
      `export default { name: "good", setup: () => ({ tools: [${tool("ok_tool", "z")}] }) };`,
    );
    const result = await loadPlugins(["bad.mjs", "good.mjs"], { baseDir: dir });
    const names = (
      await Promise.all(result.plugins.map(async (p) => (await p.setup?.({ agentId: "x", metadata: {} }))?.tools ?? []))
    )
      .flat()
      .map((t) => t.name);
    expect(names).not.toContain("bad name/../x");
    expect(names).toEqual(expect.arrayContaining(["fine", "ok_tool"]));
    expect(result.failures).toEqual([
      expect.objectContaining({
        name: "bad",
        stage: "tool",
        error: expect.objectContaining({ code: "plugin_tool_invalid" }),
      }),
    ]);
  });

  it("gives a setup 30 seconds by default", async () => {
    const started = new Promise<void>((resolve) => {
      (globalThis as { heddleSetupStarted?: () => void }).heddleSetupStarted = resolve;
    });
    await pluginFile(
      "slow.mjs",
      `export default { name: "slow", setup: () => { globalThis.heddleSetupStarted(); return new Promise(() => {}); } };`,
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let result: Awaited<ReturnType<typeof loadPlugins>> | undefined;
      void loadPlugins(["slow.mjs"], { baseDir: dir }).then((r) => (result = r));
      await started;
      await vi.advanceTimersByTimeAsync(29_999);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      for (let i = 0; i < 10 && !result; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(result?.failures).toEqual([
        expect.objectContaining({ name: "slow", error: expect.objectContaining({ code: "plugin_setup_timeout" }) }),
      ]);
    } finally {
      vi.useRealTimers();
      delete (globalThis as { heddleSetupStarted?: () => void }).heddleSetupStarted;
    }
  });

  it("times out a module whose import never settles (plugin_import_timeout); the plugins after it still load", async () => {
    const started = new Promise<void>((resolve) => {
      (globalThis as { heddleImportStarted?: () => void }).heddleImportStarted = resolve;
    });
    await pluginFile(
      "stuck.mjs",
      `globalThis.heddleImportStarted();\nawait new Promise(() => {});\nexport default { name: "stuck", setup: () => ({}) };`,
    );
    await pluginFile(
      "good.mjs",
      `export default { name: "good", setup: () => ({ tools: [${tool("ok_tool", "z")}] }) };`,
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const loading = loadPlugins(["stuck.mjs", "good.mjs"], { baseDir: dir, setupTimeoutMs: 5_000 }).finally(() => {
        settled = true;
      });
      await started;
      await vi.advanceTimersByTimeAsync(4_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      // Was: this never resolved, and "good" never loaded.
      const result = await loading;
      expect(result.plugins.map((p) => p.name)).toEqual(["good"]);
      expect(result.failures).toEqual([
        expect.objectContaining({
          path: path.join(dir, "stuck.mjs"),
          stage: "import",
          error: expect.objectContaining({ name: "PluginLoadError", code: "plugin_import_timeout" }),
        }),
      ]);
    } finally {
      vi.useRealTimers();
      delete (globalThis as { heddleImportStarted?: () => void }).heddleImportStarted;
    }
  });

  it("a setupTimeoutMs of NaN or past 2^31-1 ms does not fire at once; Infinity sets no timer", async () => {
    const started = () =>
      new Promise<void>((resolve) => {
        (globalThis as { heddleSetupStarted?: () => void }).heddleSetupStarted = resolve;
      });
    await pluginFile(
      "late.mjs",
      `export default { name: "late", setup: () => { globalThis.heddleSetupStarted(); return new Promise((resolve) => setTimeout(() => resolve({}), 60_000)); } };`,
    );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      for (const setupTimeoutMs of [Number.NaN, 2 ** 31, Number.POSITIVE_INFINITY]) {
        const setupStarted = started();
        const loading = loadPlugins(["late.mjs"], { baseDir: dir, setupTimeoutMs });
        await setupStarted;
        // The plugin's own 60 s timer, and the load's timeout unless it is infinite.
        expect(vi.getTimerCount(), String(setupTimeoutMs)).toBe(setupTimeoutMs === Number.POSITIVE_INFINITY ? 1 : 2);
        await vi.advanceTimersByTimeAsync(60_000);
        const result = await loading;
        expect(result.failures, String(setupTimeoutMs)).toEqual([]);
        expect(result.plugins.map((p) => p.name)).toEqual(["late"]);
      }
    } finally {
      vi.useRealTimers();
      delete (globalThis as { heddleSetupStarted?: () => void }).heddleSetupStarted;
    }
  });

  it("times out a setup that never resolves; the good plugins still load", async () => {
    await pluginFile("hang.mjs", `export default { name: "hang", setup: () => new Promise(() => {}) };`);
    await pluginFile(
      "good.mjs",
      `export default { name: "good", setup: () => ({ tools: [${tool("ok_tool", "z")}] }) };`,
    );
    const result = await loadPlugins(["hang.mjs", "good.mjs"], { baseDir: dir, setupTimeoutMs: 200 });
    expect(result.plugins.map((p) => p.name)).toEqual(["good"]);
    expect(result.failures).toEqual([
      expect.objectContaining({
        name: "hang",
        stage: "setup",
        error: expect.objectContaining({ code: "plugin_setup_timeout" }),
      }),
    ]);
  }, 5000);
});
