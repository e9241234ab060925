import type {
  AgentHooks,
  AgentMessage,
  AgentTool,
  AgentToolSource,
  PrepareStepContext,
  PrepareStepResult,
} from "@heddle/shared";
import { ConfigError } from "@heddle/shared";
import type { Compactor } from "../compaction/index.js";
import type { AgentSpec } from "../host/index.js";
import { InvalidSessionInputError } from "./errors.js";
import type { SessionEvent } from "./session-events.js";
import { agentHooksOf } from "./session-lifecycle.js";
import type { SessionOptions, SessionTools } from "./session-options.js";

/** What one turn of a session adds to the host's policy. */
export interface TurnSpecSources {
  sessionId: string;
  options: SessionOptions;
  /** The stored history the turn starts from: read from the store for this turn, never kept from the last. */
  history: AgentMessage[];
  /** The turn's tools: an array, or a function read before each model call (see `turnTools`). */
  tools: AgentTool[] | AgentToolSource | undefined;
  /** Context the session-level hooks (SessionStart, UserPromptSubmit) add to the turn's first request. */
  hookContext: AgentHooks | undefined;
  /** Resolves when every message queued so far is stored. */
  flushWrites(): Promise<void>;
  emit(event: SessionEvent): void;
  compactor: Compactor | undefined;
}

/**
 * The agent of one turn, as the session hands it to its host: the session's agent config without what the session
 * or the host owns, seeded with the stored history. The session's own parts: a tool never runs before the message
 * that called it is stored (first hook), the hook context (last hook), and compaction before the host's
 * `prepareStep`. Tool rules, approver, limits, checkpoints, safety, guidance and command hooks are the host's.
 */
export function turnSpec(sources: TurnSpecSources): AgentSpec {
  const {
    store: _store,
    id: _id,
    title: _title,
    workspaceRoot: _workspaceRoot,
    host: _host,
    safety: _safety,
    todoReminder: _todoReminder,
    skillsDirs: _skillsDirs,
    compaction: _compaction,
    commandHooks: _commandHooks,
    toolPolicies: _toolPolicies,
    requestToolApproval: _requestToolApproval,
    maxIterations: _maxIterations,
    maxBudgetUsd: _maxBudgetUsd,
    telemetry: _telemetry,
    prepareStep: ownStep,
    prepareTurn: ownTurn,
    tools: _tools,
    hooks,
    ...config
  } = sources.options;
  const { sessionId, emit, compactor } = sources;
  if (ownStep && ownTurn)
    throw new ConfigError('createSession: "prepareTurn" is the old name of "prepareStep"; give one of them, not both');
  const prepareStep = ownStep ?? ownTurn;
  const project =
    compactor || prepareStep
      ? async (ctx: PrepareStepContext): Promise<PrepareStepResult | void> => {
          const compacted = compactor ? await compactor.prepareTurn(ctx) : undefined;
          if (!prepareStep) return compacted;
          const own = await prepareStep.call(config, { ...ctx, messages: compacted?.messages ?? ctx.messages });
          return { ...compacted, ...own };
        }
      : undefined;
  const agentHooks = agentHooksOf(hooks);
  return {
    ...config,
    ...(agentHooks && { hooks: agentHooks }),
    sessionId,
    initialMessages: sources.history,
    ...(sources.tools && { tools: sources.tools }),
    firstHooks: { beforeTool: async () => void (await sources.flushWrites()) },
    ...(sources.hookContext && { lastHooks: sources.hookContext }),
    safetyListeners: {
      onLoopSignal: (signal) => emit({ type: "loop-warning", ...signal, sessionId }),
      onCircuitBreaker: (signal) => emit({ type: "circuit-breaker", ...signal, sessionId }),
    },
    ...(project && { prepareStep: project }),
  };
}

/**
 * The tools of one turn: the array, or the session's tools function, read before each model call so a list that
 * changes during the turn (an MCP server's `tools/list_changed`) reaches the next call.
 */
export function turnTools(
  tools: SessionTools | undefined,
  sessionId: string,
): AgentTool[] | AgentToolSource | undefined {
  if (typeof tools !== "function") return tools;
  return async () => {
    const resolved: AgentTool[] = await tools({ sessionId });
    if (!Array.isArray(resolved))
      throw new InvalidSessionInputError("tools(): the session's tools function must return an array of tools");
    return resolved;
  };
}
