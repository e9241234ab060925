import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createSession, MemorySessionStore } from "../src/sessions/index.js";
import { AgentTeamManager, createSpawnAgentTool, InMemoryTeamMailbox, type TeammateEvent } from "../src/teams/index.js";

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
afterEach(() => exporter.reset());

const spans = () => exporter.getFinishedSpans();
const named = (prefix: string) => spans().filter((s) => s.name.startsWith(prefix));
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("telemetry through core", () => {
  it("nests a sub-agent's spans under the parent's execute_tool span, in one trace", async () => {
    const childModel = createScriptedModel([{ text: "x is 42." }], { modelId: "child-model" });
    const spawn = createSpawnAgentTool({ model: childModel, tools: [] });
    const parentModel = createScriptedModel(
      [
        { toolCalls: [{ id: "call_spawn", name: "spawn_agent", input: { description: "look", prompt: "Find x." } }] },
        { text: "42" },
      ],
      { modelId: "lead-model" },
    );
    const lead = new AgentRuntime({ model: parentModel, tools: [spawn], agentId: "lead", telemetry: { tracer } });
    const result = await lead.run("What is x?");
    expect(result.status).toBe("completed");

    const [leadRun, childRun] = [named("invoke_agent lead")[0]!, named("invoke_agent general-purpose")[0]!];
    expect(leadRun).toBeDefined();
    expect(childRun).toBeDefined();
    const spawnSpan = named("execute_tool spawn_agent")[0]!;
    expect(parentOf(spawnSpan)).toBe(idOf(leadRun));
    expect(parentOf(childRun)).toBe(idOf(spawnSpan));
    expect(childRun.attributes).toMatchObject({
      "heddle.parent_agent.id": "lead",
      "gen_ai.request.model": "child-model",
    });
    const childChat = named("chat child-model")[0]!;
    expect(parentOf(childChat)).toBe(idOf(childRun));
    for (const span of spans()) expect(span.spanContext().traceId).toBe(leadRun.spanContext().traceId);
  });

  it("marks the spawn_agent span failed when the sub-agent fails", async () => {
    const childModel = createScriptedModel([{ error: { kind: "server", message: "child broke" } }]);
    const spawn = createSpawnAgentTool({ model: childModel, tools: [] });
    const parentModel = createScriptedModel([
      { toolCalls: [{ id: "call_spawn", name: "spawn_agent", input: { description: "look", prompt: "Find x." } }] },
      { text: "could not" },
    ]);
    const lead = new AgentRuntime({ model: parentModel, tools: [spawn], agentId: "lead", telemetry: { tracer } });
    await lead.run("What is x?");
    expect(named("execute_tool spawn_agent")[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(named("invoke_agent general-purpose")[0]!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("a session passes telemetry through, with its id as gen_ai.conversation.id", async () => {
    const session = await createSession({
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "hello" }]),
      compaction: false,
      id: "ses_otel",
      telemetry: { tracer },
    });
    await session.send("hi");
    const run = spans().find((s) => s.name.startsWith("invoke_agent"))!;
    expect(run.attributes["gen_ai.conversation.id"]).toBe("ses_otel");
    expect(named("chat")).toHaveLength(1);
  });

  it("a teammate's turns are traced with the manager's telemetry default", async () => {
    const manager = new AgentTeamManager({
      mailbox: new InMemoryTeamMailbox(),
      store: new MemorySessionStore(),
      model: createScriptedModel([{ text: "done" }]),
      compaction: false,
      telemetry: { tracer },
    });
    for await (const event of manager.createTeammate({ agentId: "worker" }).run("audit")) {
      if ((event as TeammateEvent).type === "idle") break;
    }
    const run = named("invoke_agent")[0]!;
    expect(run.attributes["gen_ai.agent.id"]).toBeDefined();
    expect(named("chat")).toHaveLength(1);
  });

  it("no spans when telemetry is not set", async () => {
    const spawn = createSpawnAgentTool({ model: createScriptedModel([{ text: "x" }]), tools: [] });
    const lead = new AgentRuntime({
      model: createScriptedModel([
        { toolCalls: [{ id: "c", name: "spawn_agent", input: { description: "d", prompt: "p" } }] },
        { text: "ok" },
      ]),
      tools: [spawn],
    });
    await lead.run("go");
    expect(spans()).toEqual([]);
  });
});
