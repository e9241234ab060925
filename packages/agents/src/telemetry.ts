import type {
  AgentMessage,
  AgentModelRequest,
  AgentRunResult,
  AgentUsage,
  FinishEvent,
  ToolContext,
  ToolResultPart,
} from "@heddle/shared";
import type { Attributes, Context, Histogram, Meter, Span, Tracer } from "@opentelemetry/api";

export type OtelApi = typeof import("@opentelemetry/api");
let loadingOtel: Promise<OtelApi> | undefined;

/**
 * Loads `@opentelemetry/api` for the first run that asks for telemetry, so a host without telemetry never imports
 * it at startup. A failed import is tried again by the next run.
 */
export function loadTelemetryApi(): Promise<OtelApi> {
  loadingOtel ??= import("@opentelemetry/api").catch((error: unknown) => {
    loadingOtel = undefined;
    throw error;
  });
  return loadingOtel;
}

/**
 * OpenTelemetry tracing (and metrics) of runs, following the GenAI semantic conventions. Give it (even `{}`) to get
 * spans; leave it out for none, at no cost.
 */
export interface AgentTelemetryOptions {
  /** Where spans go. Default: the global tracer provider's tracer `@heddle/agents`. */
  tracer?: Tracer;
  /** When given, the GenAI client histograms `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`. */
  meter?: Meter;
  /**
   * Record prompts, the system prompt, outputs, tool arguments, tool results and error texts on the spans (default
   * false: they can be secret). Without it a failure is recorded by its kind, HTTP status and code only: a server's
   * error message often quotes the request.
   */
  recordContent?: boolean;
  /** The most characters of one recorded content attribute (default 4096); longer values are cut. */
  maxContentLength?: number;
  /** The context the run's `invoke_agent` span is a child of. Default: the active context. */
  parentContext?: Context;
}

declare module "@heddle/shared" {
  interface AgentRuntimeConfig {
    /** OpenTelemetry spans for the run, each model call and each tool call (see `AgentTelemetryOptions`). */
    telemetry?: AgentTelemetryOptions;
  }
}

export const DEFAULT_MAX_CONTENT_LENGTH = 4096;
const TRACER_NAME = "@heddle/agents";

/** What the run span is started with. */
export interface RunIdentity {
  agentId: string;
  runId: string;
  agentName?: string;
  conversationId?: string;
  parentAgentId?: string;
  provider: string;
  model: string;
  /** Who runs the agent (Cline's identity keys): span attributes of the run. */
  client?: { [attribute: string]: string };
}

interface Instruments {
  tokens: Histogram;
  duration: Histogram;
}
// One pair of instruments per meter, however many runs use it.
const instrumentsByMeter = new WeakMap<Meter, Instruments>();

function instrumentsFor(meter: Meter): Instruments {
  let instruments = instrumentsByMeter.get(meter);
  if (!instruments) {
    instruments = {
      tokens: meter.createHistogram("gen_ai.client.token.usage", {
        description: "Number of input and output tokens used",
        unit: "{token}",
      }),
      duration: meter.createHistogram("gen_ai.client.operation.duration", {
        description: "GenAI operation duration",
        unit: "s",
      }),
    };
    instrumentsByMeter.set(meter, instruments);
  }
  return instruments;
}

// What a running tool's context carries for sub-agents: the telemetry of its run and the `execute_tool` span.
const toolSpanContexts = new WeakMap<object, { options: AgentTelemetryOptions; context: Context }>();

/**
 * The telemetry for a child run started from inside a tool (a sub-agent): `own` options (or the parent run's), with
 * the parent's `execute_tool` span as the parent of the child's `invoke_agent` span. Undefined when neither the
 * parent run nor `own` has telemetry.
 */
export function childTelemetry(ctx: ToolContext, own?: AgentTelemetryOptions): AgentTelemetryOptions | undefined {
  const parent = toolSpanContexts.get(ctx);
  if (!parent) return own;
  return { ...(own ?? parent.options), parentContext: parent.context };
}

/** Ends a `chat` span with the response; `outputText` is read only when content is recorded. */
export type ChatSpanEnd = (
  finish: FinishEvent,
  usage: Partial<AgentUsage> | undefined,
  outputText: () => string,
) => void;

/** An open `execute_tool` span. */
export interface ToolSpan {
  /** Runs the tool inside the span's context, so its own spans (and a sub-agent's) are children of it. */
  run<T>(ctx: ToolContext, execute: () => T): T;
  end(result: ToolResultPart, errorType?: string): void;
}

/** One run's spans. Built only when the config has `telemetry`. */
export class RunTelemetry {
  private readonly tracer: Tracer;
  private readonly recordContent: boolean;
  private readonly maxLength: number;
  private readonly instruments: Instruments | undefined;
  private readonly runSpan: Span;
  private readonly runContext: Context;
  private readonly common: Attributes;

  constructor(
    /** `@opentelemetry/api`, from `loadTelemetryApi()`. */
    private readonly otel: OtelApi,
    private readonly options: AgentTelemetryOptions,
    private readonly identity: RunIdentity,
    input: readonly AgentMessage[],
  ) {
    const { trace, context: otelContext, SpanKind } = otel;
    this.tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
    this.recordContent = options.recordContent === true;
    this.maxLength = options.maxContentLength ?? DEFAULT_MAX_CONTENT_LENGTH;
    this.instruments = options.meter ? instrumentsFor(options.meter) : undefined;
    this.common = {
      "gen_ai.provider.name": identity.provider,
      "gen_ai.request.model": identity.model,
      "gen_ai.agent.id": identity.agentId,
      ...(identity.conversationId !== undefined && { "gen_ai.conversation.id": identity.conversationId }),
    };
    const name = identity.agentName ?? identity.agentId;
    this.runSpan = this.tracer.startSpan(
      `invoke_agent ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "invoke_agent",
          ...this.common,
          ...(identity.agentName !== undefined && { "gen_ai.agent.name": identity.agentName }),
          "heddle.run.id": identity.runId,
          ...(identity.parentAgentId !== undefined && { "heddle.parent_agent.id": identity.parentAgentId }),
          ...identity.client,
          ...(this.recordContent && { "gen_ai.input.messages": this.content(conventionMessages(input)) }),
        },
      },
      options.parentContext ?? otelContext.active(),
    );
    this.runContext = trace.setSpan(options.parentContext ?? otelContext.active(), this.runSpan);
  }

  /** Starts a `chat` span; the returned function ends it with the response. */
  startChat(request: AgentModelRequest): ChatSpanEnd {
    const startedAt = performance.now();
    const span = this.tracer.startSpan(
      `chat ${this.identity.model}`,
      {
        kind: this.otel.SpanKind.CLIENT,
        attributes: {
          "gen_ai.operation.name": "chat",
          ...this.common,
          ...(this.recordContent && {
            "gen_ai.input.messages": this.content(conventionMessages(request.messages)),
            ...(request.systemPrompt !== undefined && {
              "gen_ai.system_instructions": this.truncate(request.systemPrompt),
            }),
          }),
        },
      },
      this.runContext,
    );
    return (finish, usage, outputText) => {
      span.setAttribute("gen_ai.response.finish_reasons", [finish.reason]);
      if (usage?.inputTokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", usage.inputTokens);
      if (usage?.outputTokens !== undefined) span.setAttribute("gen_ai.usage.output_tokens", usage.outputTokens);
      if (this.recordContent) {
        const text = outputText();
        if (text !== "") span.setAttribute("gen_ai.output.messages", this.truncate(text));
      }
      let errorType: string | undefined;
      if (finish.reason === "error" || finish.reason === "aborted") {
        errorType = finish.reason === "aborted" ? "aborted" : (finish.error?.kind ?? "unknown");
        const message =
          this.recordContent && finish.error?.message !== undefined
            ? this.truncate(finish.error.message)
            : errorSummary(`the model call ended: ${finish.reason}`, finish.error);
        fail(span, errorType, message);
      }
      span.end();
      this.recordMetrics(performance.now() - startedAt, usage, errorType);
    };
  }

  /** Starts an `execute_tool` span for one tool call. */
  startTool(call: { toolName: string; toolCallId: string }, input: unknown): ToolSpan {
    const { trace, context: otelContext, SpanKind } = this.otel;
    const span = this.tracer.startSpan(
      `execute_tool ${call.toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.provider.name": this.identity.provider,
          "gen_ai.agent.id": this.identity.agentId,
          "gen_ai.tool.name": call.toolName,
          "gen_ai.tool.call.id": call.toolCallId,
          "gen_ai.tool.type": "function",
          ...(this.recordContent && { "gen_ai.tool.call.arguments": this.content(input) }),
        },
      },
      this.runContext,
    );
    const spanContext = trace.setSpan(this.runContext, span);
    return {
      run: (ctx, execute) => {
        toolSpanContexts.set(ctx, { options: this.options, context: spanContext });
        return otelContext.with(spanContext, execute);
      },
      end: (result, errorType) => {
        if (this.recordContent) span.setAttribute("gen_ai.tool.call.result", this.content(result.output));
        if (result.isError) {
          const message = this.recordContent
            ? this.content(result.output)
            : `tool "${call.toolName}" returned an error result`;
          fail(span, errorType ?? "tool_error", message);
        }
        span.end();
      },
    };
  }

  /** Ends the run span with the run's result. */
  end(result: AgentRunResult): void {
    const span = this.runSpan;
    span.setAttributes({
      "gen_ai.usage.input_tokens": result.usage.inputTokens,
      "gen_ai.usage.output_tokens": result.usage.outputTokens,
      "heddle.run.status": result.status,
      "heddle.run.reason": result.reason,
      "heddle.run.iterations": result.iterations,
    });
    if (this.recordContent && result.outputText !== "")
      span.setAttribute("gen_ai.output.messages", this.truncate(result.outputText));
    if (result.status === "failed" || result.status === "aborted") {
      // `reasonDetail` of a model error is the server's text; without recordContent only the error's kind is kept.
      const detail = result.reasonDetail ?? result.error?.message;
      const message =
        this.recordContent && detail !== undefined
          ? this.truncate(detail)
          : errorSummary(`the run ended: ${result.reason}`, result.error);
      fail(span, result.reason, message);
    }
    span.end();
  }

  private recordMetrics(durationMs: number, usage: Partial<AgentUsage> | undefined, errorType?: string): void {
    if (!this.instruments) return;
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": this.identity.provider,
      "gen_ai.request.model": this.identity.model,
      ...(errorType !== undefined && { "error.type": errorType }),
    };
    this.instruments.duration.record(durationMs / 1000, attributes);
    if (usage?.inputTokens !== undefined)
      this.instruments.tokens.record(usage.inputTokens, { ...attributes, "gen_ai.token.type": "input" });
    if (usage?.outputTokens !== undefined)
      this.instruments.tokens.record(usage.outputTokens, { ...attributes, "gen_ai.token.type": "output" });
  }

  private content(value: unknown): string {
    let text: string;
    try {
      text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
    } catch {
      text = String(value);
    }
    return this.truncate(text);
  }

  private truncate(text: string): string {
    return text.length <= this.maxLength ? text : `${text.slice(0, this.maxLength)}…[truncated]`;
  }
}

/** Messages in the conventions' shape (`{role, parts}`), without Heddle's ids, timestamps and image bytes. */
function conventionMessages(messages: readonly AgentMessage[]): unknown[] {
  return messages.map((message) => ({
    role: message.role,
    parts: message.content.map((part) => {
      switch (part.type) {
        case "text":
          return { type: "text", content: part.text };
        case "reasoning":
          return { type: "reasoning", content: part.text };
        case "tool-call":
          return { type: "tool_call", id: part.toolCallId, name: part.toolName, arguments: part.input };
        case "tool-result":
          return { type: "tool_call_response", id: part.toolCallId, response: part.output };
        default:
          return { type: part.type };
      }
    }),
  }));
}

/**
 * A failure without its text: what ended, the error's kind, HTTP status and code. These are values of Heddle's or
 * the protocol's own vocabulary, never the server's words.
 */
function errorSummary(what: string, error: { kind: string; status?: number; code?: string } | undefined): string {
  if (!error) return what;
  const status = typeof error.status === "number" ? ` (HTTP ${error.status})` : "";
  const code = typeof error.code === "string" && /^[a-z0-9_]{1,64}$/.test(error.code) ? ` [${error.code}]` : "";
  return `${what}: ${error.kind}${status}${code}`;
}

/** `SpanStatusCode.ERROR`: a fixed value of the OpenTelemetry API, so failing a span needs no loaded module. */
const SPAN_STATUS_ERROR = 2;

/** Marks a span failed the way the conventions ask: status ERROR, `error.type`, and an exception event. */
function fail(span: Span, errorType: string, message: string): void {
  span.setAttribute("error.type", errorType);
  span.setStatus({ code: SPAN_STATUS_ERROR, message });
  span.recordException({ name: errorType, message });
}
