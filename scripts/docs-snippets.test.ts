// Every code block of the docs and READMEs compiles as written, the self-contained ones ("ts run") run, every block
// names its language, and every relative link leads somewhere. Runnable blocks run against the built packages
// (`pnpm test` builds first).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../packages/llms/src/testing/index.js";
import {
  allCopies,
  allSnippets,
  brokenLinks,
  docFiles,
  headingAnchors,
  root,
  runSnippet,
  staleCopies,
  typecheckSnippets,
  untaggedFences,
} from "./docs-snippets.mjs";

const snippets = allSnippets();
const runnable = snippets.filter((snippet) => snippet.run);

describe("doc snippets", () => {
  it("every TypeScript block compiles as its own module against the packages' sources", () => {
    // A block known to be wrong goes through the same tsc run: the check must report it, at its line, and only it.
    const canary = {
      file: "canary.md",
      line: 10,
      run: false,
      code: 'import { createTool } from "@heddle/shared";\nconst notANumber: number = createTool;\n',
    };
    const { errors } = typecheckSnippets([...snippets, canary]);
    expect(errors.filter((error) => !error.startsWith("canary.md:"))).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/^canary\.md:11: error TS2322/)]);
  }, 300_000);

  it("finds the blocks: TypeScript in the docs and every README, and at least five runnable ones", () => {
    const files = new Set(snippets.map((snippet) => snippet.file));
    for (const file of ["README.md", "docs/sessions.md", "packages/core/README.md"]) expect(files).toContain(file);
    expect(runnable.length).toBeGreaterThanOrEqual(5);
  });

  it('a block that says it is a repository file ("This is `path`") is that file, byte for byte', () => {
    const copies = allCopies();
    // TypeScript blocks and blocks of other languages (a plugin's .mjs) alike.
    expect(copies.map((copy) => copy.copyOf)).toEqual(
      expect.arrayContaining(["examples/recipes/src/sub-agent.ts", "examples/recipes/plugins/word-count.mjs"]),
    );
    expect(staleCopies(copies)).toEqual([]);
    const drifted = { ...copies[0]!, code: `${copies[0]!.code}// an edit the file does not have\n` };
    expect(staleCopies([drifted])).toEqual([`${drifted.file}:${drifted.line}: differs from ${drifted.copyOf}`]);
  });

  it("every code block names its language", () => {
    const untagged = docFiles().flatMap((file) => untaggedFences(readFileSync(join(root, file), "utf8"), file));
    expect(untagged).toEqual([]);
  });

  it("every relative link and anchor leads somewhere inside the repository", () => {
    const broken = docFiles().flatMap((file) => brokenLinks(readFileSync(join(root, file), "utf8"), file));
    expect(broken).toEqual([]);
  });

  it("the link check knows GitHub's anchors and refuses what leads nowhere", () => {
    expect(
      headingAnchors("# A\n## Testing utilities (`@heddle/llms/testing`)\n## A\n```\n# not a heading\n```"),
    ).toEqual(new Set(["a", "testing-utilities-heddlellmstesting", "a-1"]));
    // Links as if written in docs/llms.md: same-file anchors are looked up in that file's headings.
    const markdown =
      "[a](getting-started.md#testing) [b](../../outside.md) [c](missing.md) [d](#nope) [e](https://x.dev)";
    expect(brokenLinks(markdown, "docs/llms.md")).toEqual([
      "docs/llms.md:1: getting-started.md#testing (no such heading)",
      "docs/llms.md:1: ../../outside.md (outside the repository)",
      "docs/llms.md:1: missing.md (no such file)",
      "docs/llms.md:1: #nope (no such heading)",
    ]);
    expect(brokenLinks("[r](#retries) [t](llms.md#testing-utilities-heddlellmstesting)", "docs/llms.md")).toEqual([]);
  });
});

/** Anthropic Messages SSE payloads for one response: optional text, then optional tool_use blocks. */
function anthropicResponse(text: string, tools: Array<{ id: string; name: string; input: unknown }> = []) {
  const usage = { input_tokens: 20, output_tokens: 5 };
  const events: unknown[] = [
    { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage } },
  ];
  let index = 0;
  if (text) {
    events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    events.push({ type: "content_block_stop", index: index++ });
  }
  for (const tool of tools) {
    events.push({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: tool.id, name: tool.name, input: {} },
    });
    events.push({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(tool.input) },
    });
    events.push({ type: "content_block_stop", index: index++ });
  }
  const stop = tools.length ? "tool_use" : "end_turn";
  events.push({ type: "message_delta", delta: { stop_reason: stop }, usage: { output_tokens: 5 } });
  events.push({ type: "message_stop" });
  return { events };
}

describe("runnable doc snippets (ts run)", () => {
  let server: MockProviderServer;
  // No runnable block may reach a real vendor: the Anthropic client is pointed at the loopback mock, and the other
  // providers' keys are emptied.
  const env = () => ({
    ANTHROPIC_BASE_URL: server.baseUrl("anthropic"),
    ANTHROPIC_API_KEY: "test-key",
    OPENAI_API_KEY: "",
    GEMINI_API_KEY: "",
    GOOGLE_API_KEY: "",
  });
  beforeAll(async () => {
    server = await startMockProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("the README quickstart runs a tool loop on the real Anthropic client against the loopback mock", async () => {
    const quickstart = runnable.find((snippet) => snippet.file === "README.md");
    expect(quickstart, "README.md has a `ts run` block").toBeDefined();
    server.reset();
    server.enqueue(
      "anthropic",
      anthropicResponse("Let me check.", [{ id: "toolu_1", name: "get_weather", input: { city: "Lisbon" } }]),
      anthropicResponse("It is 18°C and sunny in Lisbon."),
    );
    const run = await runSnippet(quickstart!, { env: env() });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("completed It is 18°C and sunny in Lisbon.\n");
    expect(server.requests).toHaveLength(2);
    const toolResult = server.requests[1]!.body.messages.at(-1).content[0];
    expect(toolResult).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(JSON.stringify(toolResult.content)).toContain("sunny in Lisbon");
  }, 60_000);

  it("the README quickstart exits 1 and says why when the key is refused", async () => {
    const quickstart = runnable.find((snippet) => snippet.file === "README.md")!;
    server.reset();
    server.enqueue("anthropic", {
      status: 401,
      json: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    });
    const run = await runSnippet(quickstart, { env: env() });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^failed /);
    expect(run.stderr).toMatch(/^model_error .*invalid x-api-key/);
  }, 60_000);

  for (const snippet of runnable.filter((s) => s.file !== "README.md")) {
    it(`${snippet.file}:${snippet.line} runs and exits 0`, async () => {
      server.reset();
      const run = await runSnippet(snippet, { env: env() });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    }, 60_000);
  }
});
