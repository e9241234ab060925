import { mergeHooks } from "@heddle/agents";
import { createGateway } from "@heddle/llms";
import { defaultSessionDbPath, SqliteSessionStore } from "../backends/sqlite/index.js";
import { InvalidSessionInputError, SessionNotFoundError } from "./errors.js";
import { danglingToolCalls, repairMessage } from "./repair.js";
import { SessionHooks, type SessionStartSource } from "./session-hooks.js";
import { createSessionHost } from "./session-host.js";
import { commandLifecycleHooks, lifecycleHooksOf } from "./session-lifecycle.js";
import { type SessionOptions, SessionRuntime } from "./session-runtime.js";
import type { SessionStore } from "./store.js";

function checkOptions(options: SessionOptions, fn: string): void {
  if (typeof options !== "object" || options === null)
    throw new InvalidSessionInputError(`${fn}: options must be an object`);
  if (options.store === undefined && !options.workspaceRoot)
    throw new InvalidSessionInputError(`${fn}: give a "store", or a "workspaceRoot" for the default SQLite store`);
  if (options.store !== undefined && typeof options.store?.appendMessage !== "function")
    throw new InvalidSessionInputError(`${fn}: "store" must be a SessionStore`);
  if (options.model === undefined && (!options.providerId || !options.modelId))
    throw new InvalidSessionInputError(`${fn}: give "model", or "providerId" and "modelId"`);
  if (options.id !== undefined && (typeof options.id !== "string" || options.id === ""))
    throw new InvalidSessionInputError(`${fn}: "id" must be a non-empty string`);
  if (options.host !== undefined && typeof options.host?.createAgent !== "function")
    throw new InvalidSessionInputError(`${fn}: "host" must be an AgentHost`);
  if (options.commandHooks !== undefined) {
    if (typeof options.commandHooks !== "object" || options.commandHooks === null)
      throw new InvalidSessionInputError(`${fn}: "commandHooks" must be an object`);
    if (!options.workspaceRoot)
      throw new InvalidSessionInputError(
        `${fn}: "commandHooks" needs "workspaceRoot" (hooks run there and read its .heddle/settings.json)`,
      );
  }
}

/**
 * The provider form resolved once to a real model, so the runtime of every turn and the summarizing compaction
 * share it. A gateway error (unknown provider, no API key) surfaces here, before anything is stored.
 */
function resolveModel(options: SessionOptions): SessionOptions {
  if (options.model) return options;
  const { providerId, modelId, apiKey, baseUrl, headers, ...rest } = options;
  const model = createGateway().createAgentModel({
    providerId: providerId!,
    modelId: modelId!,
    ...(apiKey !== undefined && { apiKey }),
    ...(baseUrl !== undefined && { baseUrl }),
    ...(headers !== undefined && { headers }),
    ...(options.options !== undefined && { options: options.options }),
  });
  return { ...rest, model };
}

function resolveStore(options: SessionOptions): { store: SessionStore; ownsStore: boolean } {
  if (options.store) return { store: options.store, ownsStore: false };
  return { store: new SqliteSessionStore({ path: defaultSessionDbPath(options.workspaceRoot!) }), ownsStore: true };
}

function modelRef(options: SessionOptions) {
  if (options.model) return { provider: options.model.provider, id: options.model.modelId };
  return { provider: options.providerId!, id: options.modelId! };
}

/** Starts a new session. An `id` that exists is an error (`SessionExistsError`): resume it with `openSession`. */
export async function createSession(input: SessionOptions): Promise<SessionRuntime> {
  checkOptions(input, "createSession");
  const options = resolveModel(input);
  const { store, ownsStore } = resolveStore(options);
  try {
    const record = await store.createSession({
      ...(options.id !== undefined && { id: options.id }),
      ...(options.title !== undefined && { title: options.title }),
      ...(options.workspaceRoot !== undefined && { cwd: options.workspaceRoot }),
      model: modelRef(options),
    });
    try {
      return await build(record.id, options, store, ownsStore, "startup");
    } catch (error) {
      // A session that could not start (a malformed hook settings file, ...) leaves nothing behind.
      await store.deleteSession(record.id).catch(() => {});
      throw error;
    }
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
}

/**
 * Resumes a stored session with the given options. Tool calls a crash left without results get error results
 * now, so the next request is valid; the compacted working context is picked up where it was.
 */
export async function openSession(input: SessionOptions & { id: string }): Promise<SessionRuntime> {
  checkOptions(input, "openSession");
  if (!input.id) throw new InvalidSessionInputError('openSession: "id" is required');
  const options = resolveModel(input);
  const { store, ownsStore } = resolveStore(options);
  try {
    const record = await store.getSession(input.id);
    if (!record) throw new SessionNotFoundError(input.id);
    const dangling = danglingToolCalls(await store.getHistory(record.id));
    if (dangling.length > 0) await store.appendMessage(record.id, repairMessage(dangling));
    const ref = modelRef(options);
    if (record.model?.provider !== ref.provider || record.model?.id !== ref.id)
      await store.updateSession(record.id, { model: ref });
    return await build(record.id, options, store, ownsStore, "resume");
  } catch (error) {
    if (ownsStore) await store.close();
    throw error;
  }
}

async function build(
  id: string,
  options: SessionOptions,
  store: SessionStore,
  ownsStore: boolean,
  source: SessionStartSource,
): Promise<SessionRuntime> {
  // Settings files are read (and validated) here, once; a child session uses its parent host's engine.
  const host = createSessionHost(options, { id, store });
  const engine = host.policy.commandHooks;
  // One hook model: the session's own hooks in code, then the command hooks' (the engine as one more source).
  const code = lifecycleHooksOf(options.hooks);
  const lifecycle = engine ? mergeHooks(code, commandLifecycleHooks(engine, id)) : code;
  const hooks = lifecycle ? new SessionHooks(lifecycle, source, id) : undefined;
  const working = options.compaction === false ? undefined : await store.getWorkingContext(id);
  return new SessionRuntime(id, {
    store,
    ownsStore,
    options,
    host,
    ...(working && { working }),
    ...(hooks && { hooks }),
    // A fork shares the store; only the session that opened it closes it.
    reopen: (forkId) => openSession({ ...options, store, id: forkId }),
  });
}
