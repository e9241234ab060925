import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentRuntimeConfig } from "@heddle/shared";
import { ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { echoTool } from "../test/helpers.js";
import { AgentRuntime } from "./index.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("test");

afterEach(() => exporter.reset());

function spans(): ReadableSpan[] {
  return exporter.getFinishedSpans();
}
function byName(name: string): ReadableSpan {
  const span = spans().find((s) => s.name === name);
  if (!span)
    throw new Error(
      `no span "${name}" in: ${spans()
        .map((s) => s.name)
        .join(", ")}`,
    );
  return span;
}
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

function agent(config: Partial<AgentRuntimeConfig>, steps: Parameters<typeof createScriptedModel>[0]) {
  const model = createScriptedModel(steps, { provider: "acme", modelId: "acme-1" });
  return new AgentRuntime({ model, tools: [echoTool()], agentId: "agent-1", sessionId: "sess-1", ...config });
}

describe("telemetry", () => {
  it("traces a run with a tool call: invoke_agent over chat and execute_tool spans, GenAI attributes", async () => {
    const runtime = agent({ telemetry: { tracer }, agentRole: "helper" }, [
      {
        toolCalls: [{ id: "c1", name: "echo", input: { text: "secret-arg" } }],
        usage: { inputTokens: 12, outputTokens: 3 },
      },
      { text: "secret-output", usage: { inputTokens: 20, outputTokens: 4 } },
    ]);
    const result = await runtime.run("secret-prompt");
    expect(result.status).toBe("completed");

    expect(
      spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["chat acme-1", "chat acme-1", "execute_tool echo", "invoke_agent helper"]);
    const run = byName("invoke_agent helper");
    expect(parentOf(run)).toBeUndefined();
    for (const span of spans().filter((s) => s !== run)) {
      expect(parentOf(span)).toBe(idOf(run));
      expect(span.spanContext().traceId).toBe(run.spanContext().traceId);
    }
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": "agent-1",
      "gen_ai.agent.name": "helper",
      "gen_ai.conversation.id": "sess-1",
      "gen_ai.provider.name": "acme",
      "gen_ai.request.model": "acme-1",
      "gen_ai.usage.input_tokens": 32,
      "gen_ai.usage.output_tokens": 7,
    });
    expect(run.status.code).not.toBe(SpanStatusCode.ERROR);

    const [first, second] = spans().filter((s) => s.name === "chat acme-1");
    expect(first!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "acme",
      "gen_ai.request.model": "acme-1",
      "gen_ai.usage.input_tokens": 12,
      "gen_ai.usage.output_tokens": 3,
      "gen_ai.response.finish_reasons": ["tool_call"],
      "gen_ai.conversation.id": "sess-1",
    });
    expect(second!.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);

    const tool = byName("execute_tool echo");
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "c1",
    });
    expect(tool.status.code).not.toBe(SpanStatusCode.ERROR);
    // The tool ran between the two model calls.
    expect(tool.startTime >= first!.endTime || tool.startTime[0] >= first!.endTime[0]).toBe(true);

    // No content without recordContent.
    const everything = JSON.stringify(spans().map((s) => [s.attributes, s.events]));
    for (const secret of ["secret-prompt", "secret-arg", "secret-output"]) expect(everything).not.toContain(secret);
  });

  it("records prompts, outputs, tool arguments and results only with recordContent, cut at maxContentLength", async () => {
    const long = "x".repeat(200);
    const parts = (value: unknown) => (JSON.parse(String(value)) as Array<{ parts: Array<{ content: string }> }>)[0]!;
    const runtime = agent(
      { telemetry: { tracer, recordContent: true, maxContentLength: 80 }, systemPrompt: "be kind" },
      [{ toolCalls: [{ id: "c1", name: "echo", input: { text: "the-arg" } }] }, { text: `final ${long}` }],
    );
    await runtime.run("the-prompt");
    const [first] = spans().filter((s) => s.name === "chat acme-1");
    expect(parts(first!.attributes["gen_ai.input.messages"])).toEqual({
      role: "user",
      parts: [{ type: "text", content: "the-prompt" }],
    });
    expect(JSON.parse(String(first!.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "be kind" },
    ]);
    const tool = byName("execute_tool echo");
    expect(tool.attributes["gen_ai.tool.call.arguments"]).toBe('{"text":"the-arg"}');
    expect(tool.attributes["gen_ai.tool.call.result"]).toBe("echo: the-arg");
    // Each text is cut, and the message JSON around it stays whole.
    const output = parts(byName("invoke_agent agent-1").attributes["gen_ai.output.messages"]).parts[0]!.content;
    expect(output.startsWith("final xxx")).toBe(true);
    expect(output.length).toBeLessThan(100);
    expect(output).toContain("[truncated]");
  });

  it("records the model's reasoning text with recordContent, and never without it", async () => {
    const script = () => [
      { toolCalls: [{ id: "c1", name: "echo", input: { text: "x" } }], reasoning: "secret-thought" },
      { text: "done" },
    ];
    await agent({ telemetry: { tracer } }, script()).run("go");
    expect(JSON.stringify(spans().map((s) => s.attributes))).not.toContain("secret-thought");
    exporter.reset();
    await agent({ telemetry: { tracer, recordContent: true } }, script()).run("go");
    const [, second] = spans().filter((s) => s.name === "chat acme-1");
    const messages = JSON.parse(String(second!.attributes["gen_ai.input.messages"])) as Array<{
      role: string;
      parts: Array<{ type: string; content?: string }>;
    }>;
    expect(messages[1]!.parts[0]).toEqual({ type: "reasoning", content: "secret-thought" });
  });

  it("marks a failed model call and its run as errors, with an exception event", async () => {
    const runtime = agent({ telemetry: { tracer } }, [{ error: { kind: "rate_limit", message: "slow down" } }]);
    const result = await runtime.run("go");
    expect(result).toMatchObject({ status: "failed", reason: "model_error" });
    const chat = byName("chat acme-1");
    expect(chat.status).toMatchObject({
      code: SpanStatusCode.ERROR,
      message: "the model call ended: error: rate_limit",
    });
    expect(chat.attributes["error.type"]).toBe("rate_limit");
    expect(chat.attributes["gen_ai.response.finish_reasons"]).toEqual(["error"]);
    expect(chat.events.map((e) => e.name)).toContain("exception");
    const run = byName("invoke_agent agent-1");
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes["error.type"]).toBe("model_error");
    expect(run.events.map((e) => e.name)).toContain("exception");
  });

  it("without recordContent, a model error is recorded by kind and status only: not its text, which echoed the system prompt", async () => {
    // Servers quote the request in their errors: this one echoes the system prompt and the user's message.
    const echoed = "Invalid request: system='SYS-SECRET-7' messages=[{'role':'user','content':'USER-SECRET-7'}]";
    const steps = [{ error: { kind: "invalid_request" as const, message: echoed, status: 400, retryable: false } }];
    const quiet = agent({ telemetry: { tracer }, systemPrompt: "You are SYS-SECRET-7." }, steps);
    expect(await quiet.run("USER-SECRET-7")).toMatchObject({ status: "failed", reason: "model_error" });
    const everything = JSON.stringify(spans().map((s) => [s.attributes, s.events, s.status]));
    // Was: the echoed text, system prompt included, was the status message and the exception event of both spans.
    expect(everything).not.toContain("SECRET-7");
    expect(byName("chat acme-1").status.message).toBe("the model call ended: error: invalid_request (HTTP 400)");
    expect(byName("chat acme-1").attributes["error.type"]).toBe("invalid_request");
    const run = byName("invoke_agent agent-1");
    expect(run.status.message).toBe("the run ended: model_error: invalid_request (HTTP 400)");
    expect(run.events[0]?.attributes).toMatchObject({ "exception.type": "model_error" });

    // With recordContent the text is kept (cut at maxContentLength): that is what the option is for.
    exporter.reset();
    const loud = agent({ telemetry: { tracer, recordContent: true, maxContentLength: 40 } }, steps);
    await loud.run("USER-SECRET-7");
    expect(byName("chat acme-1").status.message).toBe(`${echoed.slice(0, 40)}…[truncated]`);
  });

  it("marks a failed tool call as an error", async () => {
    const failing = echoTool({
      name: "boom",
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const runtime = agent({ telemetry: { tracer }, tools: [failing] }, [
      { toolCalls: [{ id: "c1", name: "boom", input: { text: "a" } }] },
      { text: "sorry" },
    ]);
    await runtime.run("go");
    const tool = byName("execute_tool boom");
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.attributes["error.type"]).toBe("error");
    expect(tool.events.map((e) => e.name)).toContain("exception");
    // The tool's output (content) is not in the error without recordContent.
    expect(JSON.stringify(tool.events)).not.toContain("disk on fire");
  });

  it("gives a call answered without running (an unknown tool) its own execute_tool span, marked failed", async () => {
    const runtime = agent({ telemetry: { tracer } }, [
      { toolCalls: [{ id: "c1", name: "no_such_tool", input: {} }] },
      { text: "sorry" },
    ]);
    await runtime.run("go");
    const tool = byName("execute_tool no_such_tool");
    expect(tool.status.code).toBe(SpanStatusCode.ERROR);
    expect(tool.attributes["gen_ai.tool.call.id"]).toBe("c1");
    expect(parentOf(tool)).toBe(idOf(byName("invoke_agent agent-1")));
  });

  it("marks an aborted run and its cut model call as errors", async () => {
    const runtime = agent({ telemetry: { tracer } }, [{ text: "a long answer", delayMs: 200 }]);
    const running = runtime.run("go");
    setTimeout(() => runtime.abort("user pressed stop"), 20);
    const result = await running;
    expect(result.status).toBe("aborted");
    const run = byName("invoke_agent agent-1");
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes["error.type"]).toBe("aborted");
    expect(run.events.map((e) => e.name)).toContain("exception");
    const chat = byName("chat acme-1");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes["error.type"]).toBe("aborted");
    expect(parentOf(chat)).toBe(idOf(run));
  });

  it("nests the run under parentContext", async () => {
    const outer = tracer.startSpan("http request");
    const runtime = agent({ telemetry: { tracer, parentContext: trace.setSpan(ROOT_CONTEXT, outer) } }, [
      { text: "hi" },
    ]);
    await runtime.run("go");
    outer.end();
    expect(parentOf(byName("invoke_agent agent-1"))).toBe(outer.spanContext().spanId);
  });

  it("creates no span at all without telemetry, and never asks the global tracer provider", async () => {
    let asked = 0;
    trace.setGlobalTracerProvider({
      getTracer: () => {
        asked++;
        return tracer;
      },
    });
    try {
      const runtime = agent({}, [{ toolCalls: [{ id: "c1", name: "echo", input: { text: "a" } }] }, { text: "done" }]);
      await runtime.run("go");
      expect(spans()).toEqual([]);
      expect(asked).toBe(0);
      // With telemetry {} (no tracer), the global provider is used.
      const traced = agent({ telemetry: {} }, [{ text: "done" }]);
      await traced.run("go");
      expect(asked).toBe(1);
      expect(spans().map((s) => s.name)).toEqual(["chat acme-1", "invoke_agent agent-1"]);
    } finally {
      trace.disable();
    }
  });

  it("asks the model for its response id and model only when the run is traced", async () => {
    const traced = createScriptedModel([{ text: "a" }]);
    await new AgentRuntime({ model: traced, telemetry: { tracer } }).run("go");
    expect(traced.requests[0]!.responseInfo).toBe(true);
    const untraced = createScriptedModel([{ text: "a" }]);
    await new AgentRuntime({ model: untraced }).run("go");
    expect(untraced.requests[0]!.responseInfo).toBeUndefined();
  });

  it("records the GenAI client histograms when a meter is given", async () => {
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 60_000 });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const runtime = agent({ telemetry: { tracer, meter: meterProvider.getMeter("test") } }, [
      { text: "done", usage: { inputTokens: 7, outputTokens: 2 } },
    ]);
    await runtime.run("go");
    await reader.forceFlush();
    const metrics = metricExporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
    const tokens = metrics.find((m) => m.descriptor.name === "gen_ai.client.token.usage")!;
    const sums = Object.fromEntries(
      tokens.dataPoints.map((p) => [p.attributes["gen_ai.token.type"], (p.value as { sum: number }).sum]),
    );
    expect(sums).toEqual({ input: 7, output: 2 });
    expect(tokens.dataPoints[0]!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "acme",
    });
    const duration = metrics.find((m) => m.descriptor.name === "gen_ai.client.operation.duration")!;
    expect(duration.descriptor.unit).toBe("s");
    expect((duration.dataPoints[0]!.value as { count: number }).count).toBe(1);
    await meterProvider.shutdown();
  });
});
