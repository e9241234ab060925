import { mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { AgentHooks, AgentMessage, AgentRuntimeEvent, AgentTool, ToolContext } from "@heddle/shared";
import { HeddleError } from "@heddle/shared";
import { createWorkspace, type Workspace, writeFileAtomic } from "../workspace/index.js";
import type { CheckpointStore, FileCheckpoint } from "./checkpoint-store.js";

/** The two store methods checkpoints need; every `SessionStore` has them. Alias of `CheckpointStore`. */
export type FileCheckpointStore = CheckpointStore;

/** A checkpoint could not be taken, so the write did not happen. Code `checkpoint_failed`. */
export class FileCheckpointError extends HeddleError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("checkpoint_failed", message, options);
    this.name = "FileCheckpointError";
  }
}

/** For each file tool, the workspace path its input names (the file it is about to change). */
export type FileToolPaths = { [toolName: string]: (input: unknown) => string | undefined };

/** The default tools that change files: `write_file` and `edit_file`, both naming the file in `path`. */
export const DEFAULT_FILE_TOOL_PATHS: FileToolPaths = {
  write_file: pathOf,
  edit_file: pathOf,
};

function pathOf(input: unknown): string | undefined {
  const value = (input as { path?: unknown } | null)?.path;
  return typeof value === "string" ? value : undefined;
}

// Snapshots taken (or being taken) per store, keyed session/message/path: two checkpointers on one store (a
// host's own and its session's) take each file once per message, and parallel calls wait for the first.
const takenByStore = new WeakMap<object, Map<string, Promise<void>>>();

export interface FileCheckpointerOptions {
  store: FileCheckpointStore;
  /** The session the checkpoints belong to; without it, learned from each run's hook context (`sessionId`). */
  sessionId?: string;
  workspaceRoot: string;
  now?: () => number;
  /** Which tools `guardTools` checkpoints, and where their input names the file. Default `DEFAULT_FILE_TOOL_PATHS`. */
  fileTools?: FileToolPaths;
  /**
   * Every write belongs to this message, whatever call makes it: for a sub-agent, whose writes belong to the
   * parent's message that started it (see `forCall`). Its `hooks` are then empty.
   */
  messageId?: string;
}

/**
 * Records a file's content (or its absence) before write_file/edit_file change it, once per file per message, so
 * a rewind can put it back without git. The message is the assistant message holding the tool call: the
 * checkpointer learns it from the run's events (`hooks`), or from `setMessageId`, or from `ctx.metadata.messageId`.
 */
export class FileCheckpointer {
  readonly #store: FileCheckpointStore;
  readonly #workspace: Workspace;
  readonly #now: () => number;
  readonly #messageByCall = new Map<string, string>();
  readonly #sessionByCall = new Map<string, string>();
  readonly #taken: Map<string, Promise<void>>;
  readonly #fileTools: FileToolPaths;
  readonly #options: FileCheckpointerOptions;
  readonly #fixedMessageId: string | undefined;
  #currentMessageId: string | undefined;
  readonly sessionId: string | undefined;

  /** Add these to the agent's hooks: they map each tool call to the assistant message that made it. */
  readonly hooks: AgentHooks;

  constructor(options: FileCheckpointerOptions) {
    this.#store = options.store;
    this.sessionId = options.sessionId;
    this.#workspace = createWorkspace(options.workspaceRoot);
    this.#now = options.now ?? Date.now;
    this.#fileTools = options.fileTools ?? DEFAULT_FILE_TOOL_PATHS;
    this.#options = options;
    this.#fixedMessageId = options.messageId;
    const taken = takenByStore.get(options.store) ?? new Map<string, Promise<void>>();
    takenByStore.set(options.store, taken);
    this.#taken = taken;
    this.hooks =
      this.#fixedMessageId !== undefined
        ? {}
        : {
            onEvent: (event: AgentRuntimeEvent) => this.#track(event),
            beforeTool: (ctx) => {
              if (ctx.sessionId) this.#sessionByCall.set(ctx.toolCall.toolCallId, ctx.sessionId);
            },
          };
  }

  /**
   * A checkpointer for the writes of a sub-agent that the tool call `ctx` started: each belongs to the message
   * holding that call, in this session, so rewinding past that message puts the sub-agent's files back too.
   */
  forCall(ctx: ToolContext): FileCheckpointer {
    const messageId = this.#messageOf(ctx);
    const sessionId = this.sessionId ?? ctx.sessionId ?? this.#sessionByCall.get(ctx.toolCallId);
    if (!messageId || !sessionId)
      throw new FileCheckpointError(
        `No ${messageId ? "session" : "message"} is known for tool call ${ctx.toolCallId}, so what the sub-agent ` +
          "writes could not be checkpointed.",
      );
    return new FileCheckpointer({ ...this.#options, sessionId, messageId });
  }

  #messageOf(ctx: ToolContext): string | undefined {
    return (
      this.#fixedMessageId ??
      this.#messageByCall.get(ctx.toolCallId) ??
      (typeof ctx.metadata?.messageId === "string" ? ctx.metadata.messageId : undefined) ??
      this.#currentMessageId
    );
  }

  /** The message later writes belong to, for hosts that run tools outside an agent's events. */
  setMessageId(messageId: string): void {
    this.#currentMessageId = messageId;
  }

  /**
   * The tools, with each file tool wrapped so the file its input names is checkpointed right before the call
   * runs: with the input it runs with (after hooks and approval rewrote it), keyed by the call's ids from its
   * `ToolContext`. A call that never runs (denied, skipped) leaves no checkpoint. Other tools pass through as is.
   */
  guardTools(tools: AgentTool[]): AgentTool[] {
    return tools.map((tool) => {
      const pathIn = Object.hasOwn(this.#fileTools, tool.name) ? this.#fileTools[tool.name] : undefined;
      if (!pathIn) return tool;
      // Same prototype and own fields, so a tool written as a class keeps its methods.
      const guarded: AgentTool = Object.assign(Object.create(Object.getPrototypeOf(tool)), tool);
      guarded.execute = async (input: unknown, ctx: ToolContext) => {
        const named = pathIn(input);
        // A path outside the workspace is the tool's own error to report; there is nothing to checkpoint.
        const realPath = named === undefined ? undefined : await this.#workspace.resolve(named).catch(() => undefined);
        if (realPath !== undefined) await this.beforeWrite(realPath, ctx);
        return tool.execute(input, ctx);
      };
      return guarded;
    });
  }

  /** Called with the real path a tool is about to change, before it changes it (write_file/edit_file call it). */
  async beforeWrite(realPath: string, ctx: ToolContext): Promise<void> {
    const messageId = this.#messageOf(ctx);
    const sessionId = this.sessionId ?? ctx.sessionId ?? this.#sessionByCall.get(ctx.toolCallId);
    if (!messageId || !sessionId) {
      throw new FileCheckpointError(
        `No ${messageId ? "session" : "message"} is known for tool call ${ctx.toolCallId}, so the file cannot be ` +
          "checkpointed: add checkpointer.hooks to the agent's hooks (or give sessionId / call setMessageId).",
      );
    }
    const relPath = this.#workspace.display(realPath);
    const key = `${sessionId}\0${messageId}\0${relPath}`;
    const pending = this.#taken.get(key);
    if (pending) return pending;
    const taking = (async () => {
      const content = await readExisting(realPath);
      const checkpoint: FileCheckpoint = { sessionId, messageId, path: relPath, content, createdAt: this.#now() };
      await this.#store.saveFileCheckpoint(checkpoint);
    })();
    this.#taken.set(key, taking);
    try {
      await taking;
    } catch (error) {
      // Not taken: a later call may try again, and this write does not happen.
      this.#taken.delete(key);
      throw new FileCheckpointError(
        `Could not checkpoint ${relPath} before changing it: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    }
  }

  #track(event: AgentRuntimeEvent): void {
    const message: AgentMessage | undefined =
      event.type === "assistant-message" || event.type === "message-added" ? event.message : undefined;
    if (message?.role !== "assistant") return;
    for (const part of message.content) {
      if (part.type === "tool-call") this.#messageByCall.set(part.toolCallId, message.id);
    }
  }
}

async function readExisting(realPath: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(realPath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Where and how far to restore: every change made by messages appended after `afterMessageId` is undone. */
export interface FileRestoreOptions {
  store: FileCheckpointStore;
  sessionId: string;
  workspaceRoot: string;
  /** Undo changes of messages after this one; without it, every checkpointed change of the session. */
  afterMessageId?: string;
}

/** One file a restore changes: back to its earlier content, or removed because the agent created it. */
export interface FileRestoreChange {
  /** Relative to the workspace root. */
  path: string;
  action: "restore" | "delete";
}

/** What `restoreFileCheckpoints` would change, without changing anything. Unchanged files are left out. */
export async function previewFileRestore(options: FileRestoreOptions): Promise<FileRestoreChange[]> {
  const plan = await planRestore(options);
  return plan.map(({ path: relPath, action }) => ({ path: relPath, action }));
}

/**
 * Puts files back as they were before the changes of every message after `afterMessageId`: each file gets the
 * content of its earliest checkpoint in that range; a file that did not exist then is removed. Returns what changed.
 */
export async function restoreFileCheckpoints(options: FileRestoreOptions): Promise<FileRestoreChange[]> {
  const plan = await planRestore(options);
  for (const step of plan) {
    if (step.action === "delete") {
      await rm(step.realPath, { force: true });
    } else {
      await mkdir(path.dirname(step.realPath), { recursive: true });
      await writeFileAtomic(step.realPath, step.content!);
    }
  }
  return plan.map(({ path: relPath, action }) => ({ path: relPath, action }));
}

interface RestoreStep extends FileRestoreChange {
  realPath: string;
  content: Uint8Array | null;
}

async function planRestore(options: FileRestoreOptions): Promise<RestoreStep[]> {
  const workspace = createWorkspace(options.workspaceRoot);
  const checkpoints = await options.store.listFileCheckpoints(
    options.sessionId,
    options.afterMessageId === undefined ? {} : { afterMessageId: options.afterMessageId },
  );
  const earliest = new Map<string, FileCheckpoint>();
  for (const checkpoint of checkpoints) if (!earliest.has(checkpoint.path)) earliest.set(checkpoint.path, checkpoint);
  const steps: RestoreStep[] = [];
  for (const checkpoint of earliest.values()) {
    // Through the workspace guard: a store written elsewhere must not make a restore write outside the root.
    const realPath = await workspace.resolve(checkpoint.path);
    const current = await readCurrent(realPath);
    if (checkpoint.content === null) {
      if (current !== undefined) steps.push({ path: checkpoint.path, action: "delete", realPath, content: null });
    } else if (current === undefined || current === null || !sameBytes(current, checkpoint.content)) {
      steps.push({ path: checkpoint.path, action: "restore", realPath, content: checkpoint.content });
    }
  }
  return steps;
}

/** The file's bytes; `null` for something that is not a regular file; `undefined` when absent. */
async function readCurrent(realPath: string): Promise<Uint8Array | null | undefined> {
  const info = await stat(realPath).catch(() => undefined);
  if (!info) return undefined;
  if (!info.isFile()) return null;
  return new Uint8Array(await readFile(realPath));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
