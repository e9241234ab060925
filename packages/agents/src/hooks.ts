import {
  type AgentHooks,
  type AgentRunReason,
  type AgentRunStatus,
  ConfigError,
  type HookStop,
  isRunReasonCode,
  statusForReason,
} from "@heddle/shared";
import { HookError } from "./errors.js";

// `afterTurn` is the deprecated name of `afterStep`: its hooks join `afterStep`'s list, after them.
type HookName = Exclude<keyof AgentHooks, "afterTurn">;
type HookFn<K extends HookName> = Extract<NonNullable<AgentHooks[K]>, (...args: any[]) => any>;

/** Every hook as a flat list per name: config hooks first, then each plugin's, in plugin order. */
export type HookTable = { [K in HookName]: HookFn<K>[] };

const HOOK_NAMES: HookName[] = [
  "beforeRun",
  "afterRun",
  "beforeModel",
  "afterModel",
  "beforeTool",
  "afterTool",
  "afterStep",
  "onEvent",
];

const STATUSES: readonly AgentRunStatus[] = ["completed", "incomplete", "aborted", "failed"];

/**
 * Adds hook sets together, the one way Heddle composes hooks (a run's config hooks and its plugins', a host's
 * layers): for each kind, every function of every set, in the order the sets are given and, within a set, in its
 * array's order. Nothing is replaced; a set's value may be one function or an array (`HookList`). The result holds
 * arrays; the sets given are not changed.
 *
 * How the loop then calls one kind's list: in order, each with the context as the earlier ones left it
 * (`beforeModel` sees the request the previous hook returned, `beforeTool` the rewritten input). A stop from a hook
 * that runs before something (`beforeRun`, `beforeModel`, `beforeTool`) ends that kind's chain: what it precedes
 * will not happen. Hooks that run after something (`afterModel`, `afterTool`, `afterStep`) all see it; the first
 * stop's reason is the run's. A session's own hook kinds (`sessionStart`, `userPromptSubmit`, ...) compose the same way.
 */
export function mergeHooks<H extends object = AgentHooks>(...sets: Array<H | undefined>): H {
  const merged: { [name: string]: unknown[] } = {};
  for (const set of sets) {
    if (!set) continue;
    for (const [name, value] of Object.entries(set)) {
      if (value === undefined) continue;
      const list = merged[name] ?? [];
      merged[name] = list;
      if (Array.isArray(value)) list.push(...value);
      else list.push(value);
    }
  }
  return merged as H;
}

/** The hook sets of a run, checked (each hook a function) and merged by `mergeHooks` into one list per kind. */
export function buildHookTable(sets: Array<AgentHooks | undefined>, owner: (index: number) => string): HookTable {
  sets.forEach((hooks, index) => {
    for (const name of [...HOOK_NAMES, "afterTurn" as const]) {
      const value = hooks?.[name];
      if (value === undefined) continue;
      for (const fn of Array.isArray(value) ? value : [value])
        if (typeof fn !== "function")
          throw new ConfigError(`${owner(index)}: hook "${name}" must be a function or an array of functions`);
    }
  });
  const merged = mergeHooks(...sets);
  const table = Object.fromEntries(HOOK_NAMES.map((name) => [name, merged[name] ?? []])) as unknown as HookTable;
  if (Array.isArray(merged.afterTurn)) table.afterStep.push(...merged.afterTurn);
  return table;
}

/** A stop asked for by a hook, resolved to the run's reason and status. */
export interface StopRequest {
  reason: AgentRunReason;
  status: AgentRunStatus;
  detail?: string;
}

/**
 * A hook's `{stop, reason, status?}` as a stop request: a reason that is a code (lowercase snake_case) is carried
 * through as the result's reason, any other text gives `hook_stop` with the text as detail. The status is the
 * hook's, else the built-in status of the code (`aborted` for codes the loop does not define).
 */
export function stopRequestFrom(result: HookStop, source: string): StopRequest {
  const reason = result.reason;
  const status = STATUSES.includes(result.status as AgentRunStatus) ? result.status : undefined;
  if (isRunReasonCode(reason)) {
    const detail = typeof result.detail === "string" && result.detail !== "" ? result.detail : `stopped by ${source}`;
    return { reason, status: status ?? statusForReason(reason), detail };
  }
  return { reason: "hook_stop", status: status ?? "aborted", detail: reason ?? `stopped by ${source}` };
}

/** True when a hook's return value asks to stop. */
export function asksToStop(value: unknown): value is HookStop & { stop: true } {
  return typeof value === "object" && value !== null && (value as HookStop).stop === true;
}

/**
 * Calls each hook in order with the same context and returns what each returned; a throw becomes a `HookError`
 * naming the hook. The context and result types are the hooks' own (`AgentHooks` gives each kind's).
 */
export async function callHooks<C, R>(
  name: string,
  hooks: readonly ((ctx: C) => R | PromiseLike<R>)[],
  ctx: C,
): Promise<Awaited<R>[]> {
  const results: Awaited<R>[] = [];
  for (const hook of hooks) results.push(await callHook(name, hook, ctx));
  return results;
}

/** Calls one hook; a throw becomes a `HookError` naming it. */
export async function callHook<C, R>(name: string, hook: (ctx: C) => R | PromiseLike<R>, ctx: C): Promise<Awaited<R>> {
  try {
    return await hook(ctx);
  } catch (error) {
    throw new HookError(name, error);
  }
}
