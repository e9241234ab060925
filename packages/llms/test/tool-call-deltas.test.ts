// `AgentModelRequest.toolCallDeltas: false` (what the agent loop sends): every family leaves out the argument
// previews and changes nothing else. Each family that streams arguments in fragments replays a recorded stream with
// tool calls, once with the previews and once without, through the whole gateway. (Gemini sends a call's arguments
// whole, or merges Vertex's partial args itself: it has no previews to leave out.)
import type { AgentModelEvent } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGateway } from "../src/gateway.js";
import { type MockFamily, type MockProviderServer, startMockProviderServer } from "../src/testing/mock-server.js";
import { collect, readFixture } from "./support.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** A recorded stream per family whose tool-call arguments arrive in fragments. */
const CASES: Array<{ family: MockFamily; folder: string; fixture: string; providerId: string; modelId: string }> = [
  {
    family: "openai-chat",
    folder: "openai-chat",
    fixture: "parallel-and-long-args.i0.sse",
    providerId: "openai-compatible",
    modelId: "gpt-4o",
  },
  {
    family: "openai",
    folder: "openai-responses",
    fixture: "parallel-function-calls-with-reasoning.i0.sse",
    providerId: "openai",
    modelId: "gpt-5",
  },
  {
    family: "anthropic",
    folder: "anthropic",
    fixture: "parallel-tool-use.i0.sse",
    providerId: "anthropic",
    modelId: "claude-sonnet-4-6",
  },
];

async function replay(entry: (typeof CASES)[number], toolCallDeltas: boolean | undefined) {
  server.enqueue(entry.family, { sse: readFixture(entry.folder, entry.fixture) });
  const gateway = createGateway({ retry: { maxRetries: 0 }, env: {}, onWarning: () => {} });
  const model = gateway.createAgentModel({
    providerId: entry.providerId,
    modelId: entry.modelId,
    apiKey: "test-key",
    baseUrl: server.baseUrl(entry.family),
  });
  const user = { id: "u1", role: "user" as const, content: [{ type: "text" as const, text: "hi" }], createdAt: 0 };
  return collect(
    model.stream({ messages: [user], tools: [], ...(toolCallDeltas !== undefined && { toolCallDeltas }) }),
  );
}

/** Invented ids differ between two replays: number them in order of appearance. */
function stableIds(events: AgentModelEvent[]): AgentModelEvent[] {
  const ids = new Map<string, string>();
  return events.map((event) => {
    if (!("id" in event) || typeof event.id !== "string") return event;
    if (!ids.has(event.id)) ids.set(event.id, `id${ids.size}`);
    return { ...event, id: ids.get(event.id)! };
  });
}

describe("toolCallDeltas: false", () => {
  it.each(CASES)("$family: no tool-call-delta, and every other event exactly as with the previews", async (entry) => {
    const withPreviews = stableIds(await replay(entry, undefined));
    const without = stableIds(await replay(entry, false));
    const previews = withPreviews.filter((event) => event.type === "tool-call-delta");
    // The recording really streams arguments in pieces, and they are previewed by default.
    expect(previews.length).toBeGreaterThan(1);
    expect(without.filter((event) => event.type === "tool-call-delta")).toEqual([]);
    expect(without).toEqual(withPreviews.filter((event) => event.type !== "tool-call-delta"));
    // The calls still end whole.
    expect(without.filter((event) => event.type === "tool-call-end").length).toBeGreaterThan(0);
    for (const end of without) if (end.type === "tool-call-end") expect(end).toHaveProperty("input");
  });

  it("true is the same as unset: the previews come", async () => {
    const entry = CASES[2]!;
    const unset = stableIds(await replay(entry, undefined));
    expect(stableIds(await replay(entry, true))).toEqual(unset);
  });
});
