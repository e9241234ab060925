import {
  type AgentIdentity,
  type AgentMessage,
  type AgentModelRequest,
  type AgentRunResult,
  type AgentUsage,
  type ContentPart,
  type FinishEvent,
  promptTokens,
  type TelemetryOption,
  type ToolContext,
  type ToolResultPart,
} from "@heddle/shared";
import type { Attributes, Context, Histogram, Meter, Span, Tracer } from "@opentelemetry/api";
import {
  genAiFinishReason,
  genAiProviderName,
  inputMessagesJson,
  OPERATION_DURATION_BUCKETS,
  outputMessagesJson,
  serverAttributes,
  systemInstructionsJson,
  TOKEN_USAGE_BUCKETS,
  toolDefinitionsJson,
  valueJson,
} from "./telemetry-conventions.js";

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
export interface AgentTelemetryOptions extends TelemetryOption {
  /** Where spans go. Default: the global tracer provider's tracer `@heddle/agents`. */
  tracer?: Tracer;
  /** When given, the GenAI client histograms `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`. */
  meter?: Meter;
  /**
   * Record prompts, the system prompt, outputs, tool definitions, tool arguments, tool results and error texts on
   * the spans (default false: they can be secret). Without it a failure is recorded by its kind, HTTP status and code
   * only: a server's error message often quotes the request.
   */
  recordContent?: boolean;
  /**
   * The most characters of one recorded text (default 4096): a message part, a string inside tool arguments or a
   * result, an error message. Longer texts are cut; the JSON around them stays valid.
   */
  maxContentLength?: number;
  /** The context the run's `invoke_agent` span is a child of. Default: the active context. */
  parentContext?: Context;
}

export const DEFAULT_MAX_CONTENT_LENGTH = 4096;
const TRACER_NAME = "@heddle/agents";

/** What the run span is started with. */
export interface RunIdentity extends Pick<AgentIdentity, "agentId" | "conversationId" | "parentAgentId"> {
  runId: string;
  agentName?: string;
  provider: string;
  model: string;
  /** The model's endpoint (`AgentModel.baseUrl`), for `server.address` and `server.port`. */
  serverUrl?: string;
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
        advice: { explicitBucketBoundaries: TOKEN_USAGE_BUCKETS },
      }),
      duration: meter.createHistogram("gen_ai.client.operation.duration", {
        description: "GenAI operation duration",
        unit: "s",
        advice: { explicitBucketBoundaries: OPERATION_DURATION_BUCKETS },
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
export function childTelemetry(ctx: ToolContext, own?: TelemetryOption): AgentTelemetryOptions | undefined {
  const parent = toolSpanContexts.get(ctx);
  if (!parent) return own && asAgentTelemetry(own);
  return { ...(own ? asAgentTelemetry(own) : parent.options), parentContext: parent.context };
}

/**
 * The config's `telemetry` as the OpenTelemetry options it is: the contract in `@heddle/shared` keeps `tracer`,
 * `meter` and `parentContext` opaque (it does not depend on OpenTelemetry), this package gives them their types.
 */
export function asAgentTelemetry(option: TelemetryOption): AgentTelemetryOptions {
  return option as AgentTelemetryOptions;
}

/** Ends a `chat` span with the response; `output` (the response's parts) is read only when content is recorded. */
export type ChatSpanEnd = (
  finish: FinishEvent,
  usage: Partial<AgentUsage> | undefined,
  output: () => readonly ContentPart[],
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
  private readonly server: Attributes;
  private readonly cut = (text: string) => this.truncate(text);

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
    this.server = serverAttributes(identity.serverUrl);
    this.common = {
      "gen_ai.provider.name": genAiProviderName(identity.provider),
      "gen_ai.request.model": identity.model,
      "gen_ai.agent.id": identity.agentId,
      ...(identity.conversationId !== undefined && { "gen_ai.conversation.id": identity.conversationId }),
      ...this.server,
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
          ...(this.recordContent && { "gen_ai.input.messages": inputMessagesJson(input, this.cut) }),
        },
      },
      options.parentContext ?? otelContext.active(),
    );
    this.runContext = trace.setSpan(options.parentContext ?? otelContext.active(), this.runSpan);
  }

  /** Starts a `chat` span; the returned function ends it with the response. */
  startChat(request: AgentModelRequest): ChatSpanEnd {
    const startedAt = performance.now();
    const options = request.options;
    const span = this.tracer.startSpan(
      `chat ${this.identity.model}`,
      {
        kind: this.otel.SpanKind.CLIENT,
        attributes: {
          "gen_ai.operation.name": "chat",
          ...this.common,
          "gen_ai.output.type": "text",
          ...(options?.maxTokens !== undefined && { "gen_ai.request.max_tokens": options.maxTokens }),
          ...(options?.temperature !== undefined && { "gen_ai.request.temperature": options.temperature }),
          ...(options?.stopSequences?.length && { "gen_ai.request.stop_sequences": options.stopSequences }),
          ...(this.recordContent && {
            "gen_ai.input.messages": inputMessagesJson(request.messages, this.cut),
            ...(request.systemPrompt !== undefined && {
              "gen_ai.system_instructions": systemInstructionsJson(request.systemPrompt, this.cut),
            }),
            ...(request.tools.length > 0 && {
              "gen_ai.tool.definitions": toolDefinitionsJson(request.tools, this.cut),
            }),
          }),
        },
      },
      this.runContext,
    );
    return (finish, usage, output) => {
      span.setAttribute("gen_ai.response.finish_reasons", [genAiFinishReason(finish.reason)]);
      if (finish.response?.id !== undefined) span.setAttribute("gen_ai.response.id", finish.response.id);
      if (finish.response?.model !== undefined) span.setAttribute("gen_ai.response.model", finish.response.model);
      if (usage) span.setAttributes(usageAttributes(usage));
      if (this.recordContent) {
        const content = output();
        if (content.length > 0)
          span.setAttribute("gen_ai.output.messages", outputMessagesJson(content, finish.reason, this.cut));
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
      this.recordMetrics(performance.now() - startedAt, usage, finish.response?.model, errorType);
    };
  }

  /** Starts an `execute_tool` span for one tool call. */
  startTool(call: { toolName: string; toolCallId: string }, input: unknown, description?: string): ToolSpan {
    const { trace, context: otelContext, SpanKind } = this.otel;
    const span = this.tracer.startSpan(
      `execute_tool ${call.toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.provider.name": genAiProviderName(this.identity.provider),
          "gen_ai.agent.id": this.identity.agentId,
          ...(this.identity.conversationId !== undefined && { "gen_ai.conversation.id": this.identity.conversationId }),
          "gen_ai.tool.name": call.toolName,
          "gen_ai.tool.call.id": call.toolCallId,
          "gen_ai.tool.type": "function",
          ...(description !== undefined && { "gen_ai.tool.description": description }),
          ...(this.recordContent && { "gen_ai.tool.call.arguments": valueJson(input, this.cut) }),
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
        if (this.recordContent) span.setAttribute("gen_ai.tool.call.result", valueJson(result.output, this.cut));
        if (result.isError) {
          const message = this.recordContent
            ? this.truncate(valueJson(result.output, this.cut))
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
      ...usageAttributes(result.usage),
      "heddle.run.status": result.status,
      "heddle.run.reason": result.reason,
      "heddle.run.iterations": result.iterations,
    });
    if (this.recordContent && result.outputText !== "") {
      const reason = result.status === "completed" ? "stop" : result.reason === "max_tokens" ? "max-tokens" : "error";
      const text: ContentPart[] = [{ type: "text", text: result.outputText }];
      span.setAttribute("gen_ai.output.messages", outputMessagesJson(text, reason, this.cut));
    }
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

  private recordMetrics(
    durationMs: number,
    usage: Partial<AgentUsage> | undefined,
    responseModel: string | undefined,
    errorType?: string,
  ): void {
    if (!this.instruments) return;
    const attributes: Attributes = {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": genAiProviderName(this.identity.provider),
      "gen_ai.request.model": this.identity.model,
      ...(responseModel !== undefined && { "gen_ai.response.model": responseModel }),
      ...this.server,
      ...(errorType !== undefined && { "error.type": errorType }),
    };
    this.instruments.duration.record(durationMs / 1000, attributes);
    if (!usage) return;
    // The conventions' input count is the whole prompt: plain input, cache reads and cache writes.
    this.instruments.tokens.record(promptTokens(usage), { ...attributes, "gen_ai.token.type": "input" });
    if (usage.outputTokens !== undefined)
      this.instruments.tokens.record(usage.outputTokens, { ...attributes, "gen_ai.token.type": "output" });
  }

  private truncate(text: string): string {
    return text.length <= this.maxLength ? text : `${text.slice(0, this.maxLength)}…[truncated]`;
  }
}

/**
 * Token counts as the conventions count them: `input_tokens` is the whole prompt (plain input, cache reads and
 * cache writes; Heddle counts the plain part apart), with the cache counts beside it.
 */
function usageAttributes(usage: Partial<AgentUsage>): Attributes {
  return {
    "gen_ai.usage.input_tokens": promptTokens(usage),
    ...(usage.outputTokens !== undefined && { "gen_ai.usage.output_tokens": usage.outputTokens }),
    "gen_ai.usage.cache_read.input_tokens": usage.cacheReadTokens ?? 0,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheWriteTokens ?? 0,
  };
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
