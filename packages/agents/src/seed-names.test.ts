import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentRuntimeEvent,
  type AgentSnapshot,
  type AgentTool,
  ConfigError,
  createTool,
  type ToolContext,
} from "@heddle/shared";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echoTool, recordEvents, toolResults } from "../test/helpers.js";
import {
  AgentRuntime,
  type AgentRuntimeEvent as ReexportedEvent,
  type AgentTool as ReexportedTool,
  createTool as reexportedCreateTool,
} from "./index.js";

// What hosts coming from Cline's SDK and Claude Code's runtime rely on: tools that change within a run,
// provider-side tools, the event protocol, the snapshot, retryable: false, ctx.snapshot, and Cline's config names.

const call = (name: string, input: unknown = {}, id?: string) => ({ toolCalls: [{ name, input, ...(id && { id }) }] });

describe("tools that change within one run", () => {
  it("a tools function is read before each model call: a tool added mid-run is offered on the next call", async () => {
    let tools: AgentTool[] = [echoTool()];
    const added: AgentTool = {
      name: "added",
      description: "a tool that appeared",
      inputSchema: { type: "object" },
      execute: () => "added ran",
    };
    const model = createScriptedModel([call("echo", { text: "a" }), call("added"), { text: "done" }]);
    let reads = 0;
    const agent = new AgentRuntime({
      model,
      tools: () => {
        reads++;
        return tools;
      },
    });
    // The echo call changes the list, as an MCP server's tools/list_changed would between two calls.
    agent.subscribe((event) => {
      if (event.type === "tool-finished" && event.toolCall.toolName === "echo") tools = [...tools, added];
    });
    const result = await agent.run("go");
    expect(model.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ["echo"],
      ["echo", "added"],
      ["echo", "added"],
    ]);
    expect(toolResults(result.messages).map((r) => r.output)).toEqual(["echo: a", "added ran"]);
    expect(reads).toBe(3);
  });

  it("a tools function that returns two tools with one name fails the run with a ConfigError's text", async () => {
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "x" }]),
      tools: () => [echoTool(), echoTool()],
    });
    const result = await agent.run("go");
    expect(result).toMatchObject({ status: "failed", reason: "internal_error" });
    expect(result.reasonDetail).toContain('two tools are named "echo"');
  });
});

describe("provider-side tools", () => {
  it("modelTools go into every request unchanged", async () => {
    const webSearch = { type: "web_search_20250305", name: "web_search", max_uses: 3 };
    const model = createScriptedModel([call("echo", { text: "a" }), { text: "done" }]);
    await new AgentRuntime({ model, tools: [echoTool()], modelTools: [webSearch] }).run("go");
    expect(model.requests.map((r) => r.modelTools)).toEqual([[webSearch], [webSearch]]);
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(["echo"]);
  });
});

describe("the event protocol", () => {
  it("run-started names the tools and the model; deltas carry the text so far; a summary follows each tool round", async () => {
    const model = createScriptedModel([
      { reasoning: "think", text: "Let me echo.", toolCalls: [{ id: "c1", name: "echo", input: { text: "hi" } }] },
      { text: "All done." },
    ]);
    const agent = new AgentRuntime({
      model,
      tools: [echoTool(), { ...echoTool(), name: "off" }],
      toolPolicies: { off: { enabled: false } },
    });
    const events = recordEvents(agent);
    await agent.run("go");
    expect(events[0]).toMatchObject({
      type: "run-started",
      tools: ["echo"],
      model: { provider: model.provider, id: model.modelId },
    });
    const deltas = events.filter(
      (e): e is Extract<AgentRuntimeEvent, { type: "assistant-text-delta" }> => e.type === "assistant-text-delta",
    );
    expect(deltas.at(-1)!.accumulatedText).toBe("All done.");
    for (const delta of deltas) expect(delta.accumulatedText.endsWith(delta.text)).toBe(true);
    const reasoning = events.find((e) => e.type === "assistant-reasoning-delta");
    expect(reasoning).toMatchObject({ accumulatedText: "think" });
    const summaries = events.filter((e) => e.type === "tool-use-summary");
    expect(summaries).toEqual([
      expect.objectContaining({
        summary: "Ran 1 tool call: echo (ok).",
        toolCalls: [{ toolCallId: "c1", toolName: "echo", isError: false }],
      }),
    ]);
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("snapshot()", () => {
  it("reports running while a tool runs, the pending calls, and the last error", async () => {
    let seen: AgentSnapshot | undefined;
    let agent!: AgentRuntime;
    const probe: AgentTool = {
      name: "probe",
      description: "looks at the agent",
      inputSchema: { type: "object" },
      execute: () => {
        seen = agent.snapshot();
        throw new Error("probe broke");
      },
    };
    agent = new AgentRuntime({ model: createScriptedModel([call("probe", {}, "p1"), { text: "ok" }]), tools: [probe] });
    expect(agent.snapshot()).toMatchObject({ status: "idle", pendingToolCalls: [] });
    await agent.run("go");
    expect(seen).toMatchObject({ status: "running", pendingToolCalls: ["p1"], running: true });
    const after = agent.snapshot();
    expect(after).toMatchObject({ status: "idle", pendingToolCalls: [], lastErrorClass: "tool_error" });
    expect(after.lastError).toContain("probe broke");
  });

  it("reports awaiting_approval while the approver decides, and a model error's kind", async () => {
    let during: AgentSnapshot | undefined;
    let agent!: AgentRuntime;
    agent = new AgentRuntime({
      model: createScriptedModel([
        call("echo", { text: "x" }),
        { error: { kind: "rate_limit", message: "slow down" } },
      ]),
      tools: [echoTool()],
      requestToolApproval: () => {
        during = agent.snapshot();
        return { approved: true };
      },
    });
    await agent.run("go");
    expect(during?.status).toBe("awaiting_approval");
    expect(agent.snapshot()).toMatchObject({ lastError: "slow down", lastErrorClass: "rate_limit" });
  });
});

describe("tools", () => {
  it("retryable: false runs a failing tool once, whatever maxRetries says", async () => {
    let runs = 0;
    const charge: AgentTool = {
      name: "charge",
      description: "charges a card",
      inputSchema: { type: "object" },
      maxRetries: 3,
      retryable: false,
      execute: () => {
        runs++;
        throw new Error("gateway timeout");
      },
    };
    await new AgentRuntime({ model: createScriptedModel([call("charge"), { text: "ok" }]), tools: [charge] }).run("go");
    expect(runs).toBe(1);
    const retried = { ...charge, retryable: undefined };
    runs = 0;
    await new AgentRuntime({ model: createScriptedModel([call("charge"), { text: "ok" }]), tools: [retried] }).run(
      "go",
    );
    expect(runs).toBe(4);
  });

  it("see the agent's snapshot in ctx.snapshot", async () => {
    let ctxSeen: ToolContext | undefined;
    const look: AgentTool = {
      name: "look",
      description: "looks",
      inputSchema: { type: "object" },
      execute: (_input, ctx) => {
        ctxSeen = ctx;
        return `${ctx.snapshot?.messages.length} messages, ${ctx.snapshot?.status}`;
      },
    };
    const result = await new AgentRuntime({
      model: createScriptedModel([call("look"), { text: "ok" }]),
      tools: [look],
      agentId: "a1",
    }).run("go");
    expect(toolResults(result.messages)[0]!.output).toBe("2 messages, running");
    expect(ctxSeen?.snapshot?.agentId).toBe("a1");
  });
});

describe("Cline's config names", () => {
  it("toolContextMetadata, modelOptions, completionPolicy.completionGuard and messageModelInfo work", async () => {
    let metadata: unknown;
    const tool: AgentTool = {
      ...echoTool(),
      execute: (_input, ctx) => {
        metadata = ctx.metadata;
        return "ok";
      },
    };
    let guarded = 0;
    const model = createScriptedModel([call("echo", { text: "x" }), { text: "first" }, { text: "second" }]);
    const result = await new AgentRuntime({
      model,
      tools: [tool],
      toolContextMetadata: { tenant: "acme" },
      modelOptions: { maxTokens: 123 },
      completionPolicy: {
        completionGuard: () => (guarded++ === 0 ? "Check your work once more." : undefined),
      },
      messageModelInfo: { provider: "cline", id: "cline-model" },
    }).run("go");
    expect(metadata).toEqual({ tenant: "acme" });
    expect(model.requests[0]!.options).toEqual({ maxTokens: 123 });
    expect(guarded).toBe(2);
    expect(result.outputText).toBe("second");
    const assistants = result.messages.filter((m) => m.role === "assistant");
    expect(assistants.every((m) => m.model?.provider === "cline" && m.model.id === "cline-model")).toBe(true);
  });

  it("the identity keys become attributes of the run's span", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    await new AgentRuntime({
      model: createScriptedModel([{ text: "ok" }]),
      telemetry: { tracer },
      distinctId: "user-7",
      clientName: "my-ide",
      clientVersion: "1.2.3",
      clineCoreVersion: "3.0.0",
    }).run("go");
    const run = exporter.getFinishedSpans().find((span) => span.name.startsWith("invoke_agent"));
    expect(run?.attributes).toMatchObject({
      "heddle.distinct_id": "user-7",
      "heddle.client.name": "my-ide",
      "heddle.client.version": "1.2.3",
      "heddle.client.cline_core_version": "3.0.0",
    });
  });

  it("giving both names of one setting is a ConfigError; a wrong shape names the key", () => {
    const model = createScriptedModel([]);
    expect(() => new AgentRuntime({ model, metadata: {}, toolContextMetadata: {} })).toThrow(ConfigError);
    expect(() => new AgentRuntime({ model, options: {}, modelOptions: {} })).toThrow(/modelOptions.*options/);
    expect(
      () =>
        new AgentRuntime({
          model,
          completionGuard: () => undefined,
          completionPolicy: { completionGuard: () => undefined },
        }),
    ).toThrow(/completionGuard/);
    expect(() => new AgentRuntime({ model, messageModelInfo: { provider: "x" } as never })).toThrow(/messageModelInfo/);
    expect(() => new AgentRuntime({ model, clientName: 42 as never })).toThrow(/clientName/);
  });
});

describe("@heddle/agents re-exports what a host needs", () => {
  it("createTool and the host-facing types come from @heddle/agents too", () => {
    expect(reexportedCreateTool).toBe(createTool);
    const tool: ReexportedTool = reexportedCreateTool({
      name: "t",
      description: "d",
      input: z.object({}),
      execute: () => "ok",
    });
    const event: Pick<ReexportedEvent, "type"> = { type: "run-started" };
    expect(tool.name).toBe("t");
    expect(event.type).toBe("run-started");
  });
});
