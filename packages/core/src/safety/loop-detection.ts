import { type AgentHooks, type BeforeToolResult, ConfigError, stableStringify } from "@heddle/shared";

/** Settings of loop detection; every field has a default. */
export interface LoopDetectionOptions {
  /** Identical calls in a row that earn the model a notice (default 3). */
  warnAt?: number;
  /** The identical call in a row that is refused and ends the run with `loop_detected` (default 5). */
  stopAt?: number;
  /** How many recent calls a cycle (A,B,A,B,...) is looked for in (default 12). */
  cycleWindow?: number;
  /** Longest cycle looked for, in calls (default 4). */
  maxCycleLength?: number;
  /** Full repetitions of a cycle that earn a notice (default 2: A,B,A,B). */
  cycleWarnRepeats?: number;
  /** Full repetitions of a cycle at which the call is refused and the run ends (default 3). */
  cycleStopRepeats?: number;
}

/** What loop detection reports to its host (the session turns it into `loop-warning` events). */
export interface LoopSignal {
  kind: "repeat" | "cycle";
  action: "warn" | "stop";
  toolName: string;
  /** Identical calls in a row (repeat), or full repetitions of the cycle (cycle). */
  count: number;
  /** The tool names of the cycle, in order (cycle only). */
  cycle?: string[];
  message: string;
}

/** The signature two calls share when they are the same call: the tool name and its input with sorted keys. */
export function toolCallSignature(toolName: string, input: unknown): string {
  return `${toolName}\u0000${stableStringify(input)}`;
}

function positiveInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`loopDetection.${name} must be a positive integer (got ${value})`);
  return value;
}

/**
 * Loop detection as `AgentHooks`, so it works on any `AgentRuntime`. Create one per `send`: its counters are
 * the send's. The notice goes through `appendContext`, so it reaches the next model request.
 */
export function createLoopDetectionHooks(
  options: LoopDetectionOptions = {},
  onSignal?: (signal: LoopSignal) => void,
): AgentHooks {
  const warnAt = positiveInt(options.warnAt, 3, "warnAt");
  const stopAt = positiveInt(options.stopAt, 5, "stopAt");
  const window = positiveInt(options.cycleWindow, 12, "cycleWindow");
  const maxCycle = positiveInt(options.maxCycleLength, 4, "maxCycleLength");
  const cycleWarn = positiveInt(options.cycleWarnRepeats, 2, "cycleWarnRepeats");
  const cycleStop = positiveInt(options.cycleStopRepeats, 3, "cycleStopRepeats");
  if (stopAt <= warnAt)
    throw new ConfigError(`loopDetection.stopAt (${stopAt}) must be greater than warnAt (${warnAt})`);
  if (cycleStop <= cycleWarn)
    throw new ConfigError(
      `loopDetection.cycleStopRepeats (${cycleStop}) must be greater than cycleWarnRepeats (${cycleWarn})`,
    );

  const recent: Array<{ signature: string; toolName: string }> = [];
  let streak = 0;

  const signal = (s: LoopSignal): BeforeToolResult => {
    onSignal?.(s);
    // The run's result stays `aborted` / `loop_detected`: the loop knows nothing of this code.
    return s.action === "stop"
      ? { stop: true, reason: "loop_detected", status: "aborted" }
      : { appendContext: s.message };
  };

  return {
    beforeTool: (ctx) => {
      const signature = toolCallSignature(ctx.toolCall.toolName, ctx.input);
      const name = ctx.toolCall.toolName;
      streak = recent.at(-1)?.signature === signature ? streak + 1 : 1;
      recent.push({ signature, toolName: name });
      if (recent.length > window) recent.shift();

      if (streak >= stopAt)
        return signal({
          kind: "repeat",
          action: "stop",
          toolName: name,
          count: streak,
          message: `Loop detected: "${name}" was called ${streak} times in a row with the same arguments; the run was stopped.`,
        });
      if (streak >= warnAt)
        return signal({
          kind: "repeat",
          action: "warn",
          toolName: name,
          count: streak,
          message:
            `Loop warning: you have called "${name}" ${streak} times in a row with identical arguments and got the same ` +
            `result. Do not call it again with these arguments: change the arguments, try a different approach, or ` +
            `explain to the user what is blocking you. The run stops at ${stopAt} identical calls.`,
        });
      if (streak > 1) return;

      const cycle = findCycle(recent, maxCycle);
      if (!cycle) return;
      const names = cycle.pattern.map((entry) => entry.toolName);
      if (cycle.repeats >= cycleStop)
        return signal({
          kind: "cycle",
          action: "stop",
          toolName: name,
          count: cycle.repeats,
          cycle: names,
          message: `Loop detected: the calls ${names.join(" → ")} repeated ${cycle.repeats} times with the same arguments; the run was stopped.`,
        });
      if (cycle.repeats >= cycleWarn)
        return signal({
          kind: "cycle",
          action: "warn",
          toolName: name,
          count: cycle.repeats,
          cycle: names,
          message:
            `Loop warning: you are cycling through the same calls (${names.join(" → ")}) with the same arguments, ` +
            `${cycle.repeats} times now. Stop repeating them: change the approach or explain what is blocking you.`,
        });
    },
  };
}

/**
 * The shortest cycle (2..maxLength calls, at least two distinct calls) that the recent calls end with, and how
 * many full times it repeats there.
 */
function findCycle<T extends { signature: string }>(
  recent: readonly T[],
  maxLength: number,
): { pattern: T[]; repeats: number } | undefined {
  for (let length = 2; length <= maxLength && length * 2 <= recent.length; length++) {
    const pattern = recent.slice(recent.length - length);
    if (new Set(pattern.map((p) => p.signature)).size < 2) continue;
    let repeats = 1;
    for (let end = recent.length - length; end - length >= 0; end -= length) {
      const same = pattern.every((p, i) => recent[end - length + i]!.signature === p.signature);
      if (!same) break;
      repeats++;
    }
    if (repeats >= 2) return { pattern, repeats };
  }
  return undefined;
}
