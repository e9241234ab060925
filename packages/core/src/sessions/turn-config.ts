import type {
  AgentHooks,
  AgentMessage,
  AgentRuntimeConfig,
  AgentTool,
  PrepareTurnContext,
  PrepareTurnResult,
} from "@heddle/shared";
import type { FileCheckpointer } from "../checkpoints/index.js";
import type { Compactor } from "../compaction/index.js";
import { createSkillsPromptHooks, createTodoReminderHooks } from "../guidance/index.js";
import { createSafetyHooks, mergeHooks } from "../safety/index.js";
import { InvalidSessionInputError } from "./errors.js";
import type { SessionEvent } from "./session-events.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionOptions, SessionTools } from "./session-options.js";

/** Everything one turn's agent config is assembled from. */
export interface TurnConfigSources {
  sessionId: string;
  options: SessionOptions;
  /** The stored history the turn starts from. */
  history: AgentMessage[];
  /** The turn's tools (see `resolveTurnTools`). */
  tools: AgentTool[] | undefined;
  /** Context the session-level hooks (SessionStart, UserPromptSubmit) add to the turn's first request. */
  hookContext: string | undefined;
  /** Resolves when every message queued so far is stored. */
  flushWrites(): Promise<void>;
  emit(event: SessionEvent): void;
  compactor: Compactor | undefined;
  checkpointer: FileCheckpointer | undefined;
  sessionHooks: SessionHooks | undefined;
}

/**
 * The `AgentRuntime` config of one turn: the host's config minus what the session owns, seeded with the history,
 * with hooks from six sources (write flush, file checkpoints, the host's own, safety, guidance (the todo reminder
 * and the skills listing), command hooks, in that order) and `prepareTurn` running compaction before the host's own.
 */
export function buildTurnConfig(sources: TurnConfigSources): AgentRuntimeConfig {
  const {
    store: _s,
    id: _i,
    title: _t,
    workspaceRoot: _w,
    safety,
    todoReminder,
    skillsDirs,
    compaction: _c,
    commandHooks: _h,
    hooks,
    prepareTurn,
    tools: _tools,
    ...config
  } = sources.options;
  const { sessionId, emit, compactor, checkpointer } = sources;
  // A tool never runs before the assistant message that called it is durably stored.
  const flush: AgentHooks = { beforeTool: async () => void (await sources.flushWrites()) };
  const safetyHooks = createSafetyHooks(safety ?? {}, {
    onLoopSignal: (signal) => emit({ type: "loop-warning", ...signal, sessionId }),
    onCircuitBreaker: (signal) => emit({ type: "circuit-breaker", ...signal, sessionId }),
  });
  const project =
    compactor || prepareTurn
      ? async (ctx: PrepareTurnContext): Promise<PrepareTurnResult | void> => {
          const compacted = compactor ? await compactor.prepareTurn(ctx) : undefined;
          if (!prepareTurn) return compacted;
          const own = await prepareTurn.call(config, { ...ctx, messages: compacted?.messages ?? ctx.messages });
          return { ...compacted, ...own };
        }
      : undefined;
  return {
    ...config,
    sessionId,
    initialMessages: sources.history,
    // With a workspace, the session checkpoints the file each file tool names right before it runs.
    ...(sources.tools && { tools: checkpointer ? checkpointer.guardTools(sources.tools) : sources.tools }),
    hooks: mergeHooks(
      flush,
      checkpointer?.hooks,
      hooks,
      ...safetyHooks,
      todoReminder === false ? undefined : createTodoReminderHooks(todoReminder),
      skillsDirs?.length
        ? createSkillsPromptHooks({ skillsDirs, baseDir: sources.options.workspaceRoot ?? process.cwd() })
        : undefined,
      sources.sessionHooks?.turnHooks(sources.hookContext),
    ),
    ...(project && { prepareTurn: project }),
  };
}

/** The tools of one turn: the array, or what the session's tools function returns now. */
export async function resolveTurnTools(tools: SessionTools | undefined, sessionId: string) {
  if (typeof tools !== "function") return tools;
  const resolved: AgentTool[] = await tools({ sessionId });
  if (!Array.isArray(resolved))
    throw new InvalidSessionInputError("tools(): the session's tools function must return an array of tools");
  return resolved;
}
