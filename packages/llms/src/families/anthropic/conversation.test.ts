import type { AgentMessage, AgentModelRequest, ContentPart, ToolDefinition, ToolResultPart } from "@heddle/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { assemble, cassetteRequestBodies, fixture, fixtureResponse, runFamily, userText } from "./test-helpers.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** The neutral request the recorded first request was made from. */
function neutralRequest(recorded: any, messages: AgentMessage[]): AgentModelRequest {
  const tools: ToolDefinition[] = recorded.tools.map((tool: any) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.input_schema,
  }));
  return {
    systemPrompt: recorded.system[0].text,
    messages,
    tools,
    options: {
      maxTokens: recorded.max_tokens,
      toolChoice: "auto",
      // The recordings set no cache breakpoints.
      cacheRetention: "none",
      ...(recorded.thinking && { reasoning: { budgetTokens: recorded.thinking.budget_tokens } }),
    },
  };
}

/** The recorded body, with the one field this family does not send (`disable_parallel_tool_use: false` is the default). */
function normalized(recorded: any): any {
  return { ...recorded, tool_choice: { type: recorded.tool_choice.type } };
}

function assistant(content: ContentPart[]): AgentMessage {
  return { id: "a1", role: "assistant", content, createdAt: 1, model: { provider: "anthropic", id: "claude" } };
}

function toolMessage(results: ToolResultPart[]): AgentMessage {
  return { id: "t1", role: "tool", content: results, createdAt: 2 };
}

describe("anthropic multi-request cassettes replayed as a conversation", () => {
  it("thinking-then-tool-use: the second request sends the thinking block back with its signature", async () => {
    const [first, second] = cassetteRequestBodies(fixture("thinking-then-tool-use.cassette.yaml"));
    server.enqueue(
      "anthropic",
      fixtureResponse("thinking-then-tool-use.i0.sse"),
      fixtureResponse("thinking-then-tool-use.i1.sse"),
    );
    const user = userText(first.messages[0].content[0].text);

    const turn1 = assemble(await runFamily(server, neutralRequest(first, [user])));
    expect(server.requests[0]!.body).toEqual(normalized(first));
    expect(turn1.finish.reason).toBe("tool-calls");
    const call = turn1.content.find((part) => part.type === "tool-call")!;

    const results = toolMessage([
      { type: "tool-result", toolCallId: call.toolCallId, toolName: call.toolName, output: "40 C" },
    ]);
    const turn2 = assemble(await runFamily(server, neutralRequest(first, [user, assistant(turn1.content), results])));
    // Byte for byte what the recorded client sent: thinking text and signature verbatim, before the tool_use.
    expect(server.requests[1]!.body).toEqual(normalized(second));
    expect(turn2.finish.reason).toBe("stop");
    expect(turn2.content[0]).toMatchObject({ type: "text" });
  });

  it("parallel-tool-use: both calls and both results go back with matching ids, in order", async () => {
    const [first, second] = cassetteRequestBodies(fixture("parallel-tool-use.cassette.yaml"));
    server.enqueue(
      "anthropic",
      fixtureResponse("parallel-tool-use.i0.sse"),
      fixtureResponse("parallel-tool-use.i1.sse"),
    );
    const user = userText(first.messages[0].content[0].text);

    const turn1 = assemble(await runFamily(server, neutralRequest(first, [user])));
    expect(server.requests[0]!.body).toEqual(normalized(first));
    const calls = turn1.content.filter((part) => part.type === "tool-call");
    expect(calls.map((c) => c.toolName)).toEqual(["add", "multiply"]);

    const outputs: Record<string, string> = { add: "5", multiply: "6" };
    const results = toolMessage(
      calls.map((c) => ({
        type: "tool-result",
        toolCallId: c.toolCallId,
        toolName: c.toolName,
        output: outputs[c.toolName]!,
      })),
    );
    await runFamily(server, neutralRequest(first, [user, assistant(turn1.content), results]));
    expect(server.requests[1]!.body).toEqual(normalized(second));
  });

  it("redacted-thinking: both redacted blocks go back verbatim as redacted_thinking", async () => {
    const trigger = /ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_[0-9A-F]+/.exec(
      fixture("redacted-thinking.cassette.yaml"),
    )![0];
    server.enqueue("anthropic", fixtureResponse("redacted-thinking.i0.sse"), fixtureResponse("text.sse"));
    const request = (messages: AgentMessage[]): AgentModelRequest => ({
      messages,
      tools: [],
      options: { maxTokens: 4096, reasoning: { budgetTokens: 1024 }, cacheRetention: "none" },
    });
    const turn1 = assemble(await runFamily(server, request([userText(trigger)])));
    // The recorded request (its parsed_body), apart from the model id the test names.
    expect(server.requests[0]!.body).toEqual({
      max_tokens: 4096,
      messages: [{ role: "user", content: [{ type: "text", text: trigger }] }],
      model: "claude-sonnet-4-20250514",
      stream: true,
      thinking: { budget_tokens: 1024, type: "enabled" },
    });

    await runFamily(server, request([userText(trigger), assistant(turn1.content), userText("Thanks")]));
    const data = [...fixture("redacted-thinking.i0.sse").matchAll(/"redacted_thinking","data":"([^"]+)"/g)].map(
      (m) => m[1],
    );
    const sent = server.requests[1]!.body.messages;
    expect(sent).toHaveLength(3);
    expect(sent[1].role).toBe("assistant");
    expect(sent[1].content.slice(0, 2)).toEqual(data.map((d) => ({ type: "redacted_thinking", data: d })));
    expect(sent[1].content[2]).toMatchObject({ type: "text", text: expect.stringMatching(/^I notice that/) });
  });
});
