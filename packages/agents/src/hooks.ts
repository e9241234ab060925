import { AGENT_RUN_REASONS, type AgentHooks, type AgentRunReason, type HookStop } from "@heddle/shared";

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
  "onEvent",
];

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
          throw new TypeError(`${owner(index)}: hook "${name}" must be a function or an array of functions`);
        (table[name] as unknown[]).push(fn);
      }
    }
  });
  return table;
}

/** A stop asked for by a hook, resolved to the run's reason and status. */
export interface StopRequest {
  reason: AgentRunReason;
  detail?: string;
}

/** A hook's `{stop, reason}` as a stop request: a reason code is carried through, other text gives `hook_stop`. */
export function stopRequestFrom(result: HookStop, source: string): StopRequest {
  const reason = result.reason;
  if (reason !== undefined && (AGENT_RUN_REASONS as readonly string[]).includes(reason)) {
    return { reason: reason as AgentRunReason, detail: `stopped by ${source}` };
  }
  return { reason: "hook_stop", detail: reason ?? `stopped by ${source}` };
}

/** True when a hook's return value asks to stop. */
export function asksToStop(value: unknown): value is HookStop {
  return typeof value === "object" && value !== null && (value as HookStop).stop === true;
}

/** Thrown inside the runtime when a hook throws, so the run ends as failed with the hook named. */
export class HookError extends Error {
  override name = "HookError";
  constructor(hook: string, cause: unknown) {
    super(`hook ${hook} threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Calls each hook in order with the same context; a throw becomes a `HookError` naming the hook. */
export async function callHooks<R>(name: string, hooks: Array<(ctx: any) => unknown>, ctx: unknown): Promise<R[]> {
  const results: R[] = [];
  for (const hook of hooks) {
    try {
      results.push((await hook(ctx)) as R);
    } catch (error) {
      throw new HookError(name, error);
    }
  }
  return results;
}
