import type {
  AgentErrorClass,
  AgentMessage,
  AgentModel,
  AgentModelRequest,
  AgentRunReason,
  AgentRunResult,
  AgentRunStatus,
  AgentRuntimeConfig,
  AgentRuntimeEvent,
  AgentSnapshot,
  AgentStatus,
  AgentTool,
  AgentUsage,
  FinishEvent,
  HookContextBase,
  Logger,
  PermissionDenial,
  StopCondition,
  ToolApprovalRequest,
  ToolContext,
  ToolDefinition,
} from "@heddle/shared";
import type { ContextChannel } from "./context-message.js";
import type { EventBus } from "./events.js";
import type { HookTable, StopRequest } from "./hooks.js";
import type { StreamAssembler } from "./stream-assembler.js";
import type { RunTelemetry } from "./telemetry.js";
import type { AbortFanout } from "./tool-execution.js";

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;
/** An event before the runtime stamps it with the agent's identity, the run and the iteration. */
export type EventBody = DistributiveOmit<
  AgentRuntimeEvent,
  "id" | "agentId" | "runId" | "iteration" | "parentAgentId" | "agentRole"
>;

/** Everything one run needs from its runtime. The transcript array is appended to in place. */
export interface RunDeps {
  agentId: string;
  config: AgentRuntimeConfig;
  model: AgentModel;
  /** The tools of the first model call (an array config's, for every call). */
  toolset: Toolset;
  /** With a tools function: reads the tools again before each model call. */
  readToolset?: () => Promise<Toolset>;
  /** What `snapshot()` reports of the agent's state; the run keeps it current. */
  live: LiveState;
  /** The agent's `snapshot()`, for a tool that reads `ctx.snapshot`. */
  snapshot(): AgentSnapshot;
  hooks: HookTable;
  transcript: AgentMessage[];
  bus: EventBus;
  controller: AbortController;
  logger: Logger;
  maxIterations: number;
  maxParallelTools: number;
  maxCompletionReminders: number;
  stopWhen: StopCondition[];
  takeSteered(): AgentMessage[];
}

/** The tools of one model call: by name, as offered to the model, and those the policy disables. */
export interface Toolset {
  tools: ReadonlyMap<string, AgentTool>;
  definitions: ToolDefinition[];
  disabled: ReadonlySet<string>;
}

/** The agent's state between snapshots: owned by the runtime, kept current by its runs. */
export interface LiveState {
  status: AgentStatus;
  /** Calls of the current turn that have not finished, by id. */
  pendingToolCalls: Set<string>;
  lastError?: string;
  lastErrorClass?: AgentErrorClass;
}

/** Records the last error an agent met. Long texts are cut: a snapshot must stay small. */
export function noteError(live: LiveState, message: string, errorClass: AgentErrorClass): void {
  live.lastError = message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
  live.lastErrorClass = errorClass;
}

/** How a run ends. */
export interface RunEnd {
  status: AgentRunStatus;
  reason: AgentRunReason;
  detail?: string;
  error?: AgentRunResult["error"];
}

/** What one turn step decided: the loop in `run.ts` is a switch over this. */
export type NextStep =
  /** Call the model again (tools ran, or new user input arrived). */
  | { type: "run_again" }
  /** The run is over. */
  | { type: "final"; end: RunEnd }
  /** The request overflowed the context window: ask `prepareStep` for a smaller one, once. */
  | { type: "retry_smaller"; overflowedSize: number }
  /** The model stopped early: send it this reminder and go on. */
  | { type: "remind"; text: string };

/** A model response, accounted: usage priced and added to the run, duration counted. */
export interface ModelCall {
  assembler: StreamAssembler;
  finish: FinishEvent;
  /** This response's priced usage, when the model reported any. */
  usage: AgentUsage | undefined;
}

/** The run as the helpers (turn step, tool calls, between-turn checks) see it. */
export interface RunContext {
  readonly deps: RunDeps;
  readonly runId: string;
  readonly iteration: number;
  readonly usage: AgentUsage;
  readonly newMessages: readonly AgentMessage[];
  readonly permissionDenials: PermissionDenial[];
  readonly context: ContextChannel;
  readonly fanout: AbortFanout;
  readonly signal: AbortSignal;
  /** The run's spans, when the config has `telemetry`. */
  readonly telemetry: RunTelemetry | undefined;
  /** The stop a hook asked for, if any. */
  readonly stop: StopRequest | undefined;
  /** What every tool's context carries about this run. */
  readonly toolRunContext: Pick<
    ToolContext,
    "runId" | "agentId" | "sessionId" | "parentAgentId" | "reportUsage" | "remainingBudgetUsd" | "permissions"
  >;
  /** The tools of the current model call. */
  readonly toolset: Toolset;
  /** Reads the tools again when the config gives a function (before each model call but the run's first). */
  refreshToolset(): Promise<void>;
  /** Who asks when this run asks the approver: its agent id, and its parent and role when it has them. */
  readonly approvalIdentity: Pick<ToolApprovalRequest, "agentId" | "parentAgentId" | "agentRole">;
  hookBase(): HookContextBase;
  emit(body: EventBody): void;
  append(message: AgentMessage): void;
  requestStop(stop: StopRequest): void;
  countToolCalls(count: number): void;
  /** The end for a pending abort or stop, if any: checked between every step. */
  checkpoint(): RunEnd | undefined;
  /** Counts a new model call (the iteration) and announces it. */
  beginTurn(): void;
  /** Streams one model call and accounts its usage and duration. */
  callModel(request: AgentModelRequest): Promise<ModelCall>;
  /** Sets the run's `outputText`. */
  setOutput(text: string): void;
}
