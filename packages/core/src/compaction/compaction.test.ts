import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentMessage,
  assistantMessage,
  getMessageText,
  type PrepareTurnContext,
  toolResultMessage,
  userMessage,
} from "@heddle/shared";
import { describe, expect, it } from "vitest";
import { type CompactionEvent, Compactor } from "./compactor.js";
import { isCompactionMessage } from "./strategy.js";
import { summarizingCompaction } from "./summarizing.js";
import { estimateMessageTokens, estimateTokens, tailStart } from "./tokens.js";
import { truncatingCompaction } from "./truncating.js";
import type { WorkingContext } from "./working-context.js";

const signal = new AbortController().signal;

function conversation(turns: number, size = 400): AgentMessage[] {
  const out: AgentMessage[] = [userMessage("Fix the bug in src/app.ts")];
  for (let i = 0; i < turns; i++) {
    const id = `c${i}`;
    out.push(
      assistantMessage([{ type: "tool-call", toolCallId: id, toolName: "read_file", input: { path: `src/f${i}.ts` } }]),
    );
    out.push(
      toolResultMessage([{ type: "tool-result", toolCallId: id, toolName: "read_file", output: "y".repeat(size) }]),
    );
  }
  return out;
}

describe("token estimate", () => {
  it("grows with content and counts images and tool inputs", () => {
    const small = estimateMessageTokens(userMessage("hi"));
    expect(estimateMessageTokens(userMessage("x".repeat(3500)))).toBeGreaterThan(900);
    expect(estimateMessageTokens(userMessage([{ type: "image", mediaType: "image/png", data: "AA" }]))).toBeGreaterThan(
      1000,
    );
    expect(small).toBeLessThan(10);
    expect(estimateTokens([userMessage("hi"), userMessage("hi")], "sys")).toBe(2 * small + 1);
  });

  it("never starts the kept tail on tool results", () => {
    const messages = conversation(5);
    const start = tailStart(messages, estimateMessageTokens(messages.at(-1)!) + 1);
    expect(messages[start]?.role ?? "end").not.toBe("tool");
    expect(tailStart(messages, 1e9)).toBe(0);
  });
});

describe("truncating strategy", () => {
  it("keeps the task and the recent tail and says how many messages went", async () => {
    const messages = conversation(10);
    const { messages: out } = await truncatingCompaction({ keepRecentTokens: 300 }).compact({
      messages,
      reason: "threshold",
      estimatedTokens: estimateTokens(messages),
      threshold: 0.85,
      signal,
    });
    expect(out[0]).toBe(messages[0]);
    expect(isCompactionMessage(out[1]!)).toBe(true);
    expect(getMessageText(out[1]!)).toMatch(/\d+ earlier messages were removed/);
    expect(out.at(-1)).toBe(messages.at(-1));
    expect(out[2]!.role).toBe("assistant");
    expect(estimateTokens(out)).toBeLessThan(estimateTokens(messages) / 2);
  });
});

describe("summarizing strategy", () => {
  it("asks the model for a summary that lists touched files, and keeps the recent tail verbatim", async () => {
    const model = createScriptedModel([{ text: "Goal: fix bug. Files touched: src/f0.ts (read)." }]);
    const messages = conversation(8);
    const { messages: out } = await summarizingCompaction({ keepRecentTokens: 300 }).compact({
      messages,
      reason: "threshold",
      estimatedTokens: estimateTokens(messages),
      threshold: 0.85,
      model,
      instructions: "Mention the bug ticket.",
      signal,
    });
    const request = model.requests[0]!;
    expect(request.tools).toEqual([]);
    expect(request.messages).toHaveLength(1);
    const prompt = getMessageText(request.messages[0]!);
    expect(prompt).toContain("Files touched");
    expect(prompt).toContain("[tool call read_file]");
    expect(prompt).toContain("Mention the bug ticket.");
    expect(getMessageText(out[0]!)).toContain("Goal: fix bug.");
    expect(isCompactionMessage(out[0]!)).toBe(true);
    expect(out.slice(1)).toEqual(messages.slice(messages.length - (out.length - 1)));
  });

  it("fails with a typed error when the summary call fails or there is no model", async () => {
    const model = createScriptedModel([{ error: { kind: "server" } }]);
    const ctx = { messages: conversation(8), reason: "overflow" as const, estimatedTokens: 1, threshold: 0.85, signal };
    await expect(summarizingCompaction({ model, keepRecentTokens: 100 }).compact(ctx)).rejects.toThrow(
      /summary call failed/,
    );
    await expect(summarizingCompaction().compact(ctx)).rejects.toThrow(/needs a model/);
  });
});

describe("Compactor", () => {
  function setup(options: ConstructorParameters<typeof Compactor>[0], working?: WorkingContext) {
    const saved: WorkingContext[] = [];
    const events: CompactionEvent[] = [];
    const compactor = new Compactor(
      options,
      { sessionId: "s", save: async (w) => void saved.push(w), emit: (e) => void events.push(e) },
      working,
    );
    return { compactor, saved, events };
  }
  const turn = (messages: AgentMessage[], overflowRecovery = false): PrepareTurnContext => ({
    agentId: "agent-1",
    tools: [],
    iteration: 1,
    messages,
    overflowRecovery,
    signal,
  });

  it("leaves small requests alone and compacts past the threshold, saving the working context", async () => {
    const { compactor, saved, events } = setup({
      strategy: truncatingCompaction({ keepRecentTokens: 200 }),
      contextWindow: 1000,
    });
    const small = conversation(1, 10);
    expect(await compactor.prepareTurn(turn(small))).toBeUndefined();
    const big = conversation(10);
    const result = await compactor.prepareTurn(turn(big));
    expect(result?.messages?.length).toBeLessThan(big.length);
    expect(saved[0]).toMatchObject({ basedOnMessageId: big.at(-1)!.id, strategy: "truncating" });
    expect(events.map((e) => e.type)).toEqual(["compaction-started", "compaction-finished"]);
    const next = userMessage("and now?");
    expect(compactor.project([...big, next])).toEqual([...saved[0]!.messages, next]);
  });

  it("compacts from 0.85 of the context window by default, and not below it", async () => {
    const big = conversation(10);
    const tokens = estimateTokens(big);
    const below = setup({ strategy: truncatingCompaction({ keepRecentTokens: 200 }), contextWindow: tokens / 0.84 });
    expect(await below.compactor.prepareTurn(turn(big))).toBeUndefined();
    const above = setup({ strategy: truncatingCompaction({ keepRecentTokens: 200 }), contextWindow: tokens / 0.86 });
    expect((await above.compactor.prepareTurn(turn(big)))?.messages?.length).toBeLessThan(big.length);
  });

  it("compacts on overflow even without a known window, and a PreCompact hook can skip or instruct", async () => {
    const seen: string[] = [];
    const { compactor, saved } = setup({
      strategy: truncatingCompaction({ keepRecentTokens: 200 }),
      onPreCompact: (ctx) => {
        seen.push(ctx.reason);
        return seen.length === 1 ? { skip: true } : undefined;
      },
    });
    const big = conversation(10);
    expect(await compactor.prepareTurn(turn(big))).toBeUndefined();
    expect(await compactor.prepareTurn(turn(big, true))).toBeUndefined();
    expect((await compactor.prepareTurn(turn(big, true)))?.messages?.length).toBeLessThan(big.length);
    expect(seen).toEqual(["overflow", "overflow"]);
    expect(saved).toHaveLength(1);
  });

  it("falls back to the transcript when the working context is stale (rewound past it)", () => {
    const messages = conversation(2);
    const { compactor } = setup(
      {},
      { messages: [userMessage("s")], basedOnMessageId: "gone", strategy: "x", createdAt: 0 },
    );
    expect(compactor.project(messages)).toEqual(messages);
  });

  it("reports a failed compaction and sends the request uncompacted", async () => {
    const { compactor, events } = setup({ strategy: summarizingCompaction(), contextWindow: 100 });
    expect(await compactor.prepareTurn(turn(conversation(5)))).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "compaction-finished", error: expect.stringMatching(/needs a model/) });
  });

  it("rejects a threshold outside (0, 1]", () => {
    expect(() => setup({ threshold: 1.5 })).toThrow(/threshold/);
    expect(() => setup({ threshold: 1.5 })).toThrow(expect.objectContaining({ code: "config_invalid" }));
  });
});
