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

type HookName = keyof AgentHooks;
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
  "afterTurn",
  "onEvent",
];

const STATUSES: readonly AgentRunStatus[] = ["completed", "incomplete", "aborted", "failed"];

/** Merges hook sets so that later ones add to earlier ones, never replace them. */
export function buildHookTable(sets: Array<AgentHooks | undefined>, owner: (index: number) => string): HookTable {
  const table = Object.fromEntries(HOOK_NAMES.map((name) => [name, []])) as unknown as HookTable;
  sets.forEach((hooks, index) => {
    if (!hooks) return;
    for (const name of Object.keys(hooks) as HookName[]) {
      if (!HOOK_NAMES.includes(name)) continue;
      const value = hooks[name];
      if (value === undefined) continue;
      const list = Array.isArray(value) ? value : [value];
      for (const fn of list) {
        if (typeof fn !== "function")
          throw new ConfigError(`${owner(index)}: hook "${name}" must be a function or an array of functions`);
        (table[name] as unknown[]).push(fn);
      }
    }
  });
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
export function asksToStop(value: unknown): value is HookStop {
  return typeof value === "object" && value !== null && (value as HookStop).stop === true;
}

/** Calls each hook in order with the same context; a throw becomes a `HookError` naming the hook. */
export async function callHooks<R>(name: string, hooks: Array<(ctx: any) => unknown>, ctx: unknown): Promise<R[]> {
  const results: R[] = [];
  for (const hook of hooks) results.push(await callHook<R>(name, hook, ctx));
  return results;
}

/** Calls one hook; a throw becomes a `HookError` naming it. */
export async function callHook<R>(name: string, hook: (ctx: any) => unknown, ctx: unknown): Promise<R> {
  try {
    return (await hook(ctx)) as R;
  } catch (error) {
    throw new HookError(name, error);
  }
}
