import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import type { PluginSetupResult } from "@heddle/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
