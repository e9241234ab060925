import type { AgentRuntimeConfig, AgentTool, Logger } from "@heddle/shared";
import type { FileRestoreChange } from "../checkpoints/index.js";
import type { CompactionOptions } from "../compaction/index.js";
import type { TodoReminderOptions } from "../guidance/index.js";
import type { AgentHost } from "../host/index.js";
import type { SafetyOptions } from "../safety/index.js";
import type { CommandHookOptions } from "./session-hooks.js";
import type { SessionHookOptions } from "./session-lifecycle.js";
import type { SessionStore } from "./store.js";

/** A session's tools: a fixed array, or a function called at the start of every turn (MCP servers and plugins
 * add and remove tools while a session lives). */
export type SessionTools = AgentTool[] | ((ctx: { sessionId: string }) => AgentTool[] | Promise<AgentTool[]>);

/** Options of `createSession` / `openSession`: the agent's config (minus what the session owns) and the session's. */
export interface SessionOptions extends Omit<AgentRuntimeConfig, "initialMessages" | "sessionId" | "tools" | "hooks"> {
  /**
   * The loop's hooks for every turn (`AgentHooks`), and the session's own: `sessionStart`, `userPromptSubmit`,
   * `preCompact`, `sessionEnd` (see `SessionLifecycleHooks`). Command hooks, when given, run after these.
   */
  hooks?: SessionHookOptions;
  /** The tools of each turn: an array, or a function called at the start of each turn. */
  tools?: SessionTools;
  /**
   * The host this session's agents run under (a teammate's session under its team's). Its policy applies, and this
   * session's `toolPolicies`, `requestToolApproval`, limits and `safety` can only narrow it; its command hooks run
   * (so `commandHooks` cannot be given too). Without it, the session's options are the whole policy.
   */
  host?: AgentHost;
  /** Where the session lives. Without it, a `SqliteSessionStore` at `.heddle/sessions.db` under `workspaceRoot`. */
  store?: SessionStore;
  /** The session id: chosen by `createSession` when absent; required by `openSession`. */
  id?: string;
  title?: string;
  /** The workspace the session works in: recorded as its `cwd`, and the root for file rewind. */
  workspaceRoot?: string;
  /** Loop detection and the failure circuit breaker: on by default. */
  safety?: SafetyOptions;
  /**
   * A reminder to update the task list after rounds of tool calls without `todo_write` (default: after 3 rounds,
   * only when the turn offers `todo_write`); `false` turns it off.
   */
  todoReminder?: false | TodoReminderOptions;
  /**
   * Folders of skills (`<dir>/<name>/SKILL.md`, relative to `workspaceRoot`): each skill's name and description
   * are listed in the system prompt, so the model knows what `load_skill` can load. Give the same folders to
   * `createDefaultTools({skillsDirs})` for the `load_skill` tool itself.
   */
  skillsDirs?: string[];
  /** Compaction of the working context: on by default (summarizing, at 0.85 of the context window). */
  compaction?: false | CompactionOptions;
  /**
   * Command hooks (`.heddle/settings.json` under `workspaceRoot`, plus settings and functions in code). Off unless
   * given: a library must not run commands a cloned repository's settings file names just because it was opened.
   */
  commandHooks?: CommandHookOptions;
  /**
   * Where the session reports what it cannot throw: a listener that threw, a stored message it could not read.
   * Default: `consoleLogger` from `@heddle/shared`.
   */
  logger?: Logger;
}

/** What `rewind` did. */
export interface RewindResult {
  /** The new head; `null` after a rewind to before the first message. */
  headMessageId: string | null;
  /** Files put back (only with `{files: true}`). */
  files: FileRestoreChange[];
}

/** What a rewind would do, without doing it. */
export interface RewindPreview {
  /** Messages that leave the visible history. */
  messagesRemoved: number;
  files: FileRestoreChange[];
}
