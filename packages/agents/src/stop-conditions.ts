import { ConfigError, promptTokens, type StopCondition, type StopConditionContext } from "@heddle/shared";

// A readable name ends up in `result.reasonDetail`, so a user sees which condition stopped the run.
function named(name: string, condition: StopCondition): StopCondition {
  Object.defineProperty(condition, "name", { value: name });
  return condition;
}

function requireNumber(helper: string, value: number, min: number): void {
  if (typeof value !== "number" || Number.isNaN(value) || value < min) {
    throw new ConfigError(`${helper}: expected a number >= ${min}, got ${String(value)}`);
  }
}

/** True once this many model calls were made in the run. */
export function stepCountIs(count: number): StopCondition {
  requireNumber("stepCountIs", count, 1);
  return named(`stepCountIs(${count})`, (ctx) => ctx.iteration >= count);
}

/** True when the last assistant message called the named tool. */
export function hasToolCall(toolName: string): StopCondition {
  if (typeof toolName !== "string" || toolName === "") throw new ConfigError("hasToolCall: expected a tool name");
  return named(`hasToolCall(${toolName})`, (ctx) =>
    ctx.lastMessage.content.some((part) => part.type === "tool-call" && part.toolName === toolName),
  );
}

/** True when the run's cost is above this many US dollars. */
export function costExceeds(usd: number): StopCondition {
  requireNumber("costExceeds", usd, 0);
  return named(`costExceeds(${usd})`, (ctx) => ctx.usage.costUsd > usd);
}

/** True when the run's tokens (prompt, cache reads and writes, and output) are above this count. */
export function tokensExceed(tokens: number): StopCondition {
  requireNumber("tokensExceed", tokens, 0);
  return named(`tokensExceed(${tokens})`, (ctx) => promptTokens(ctx.usage) + ctx.usage.outputTokens > tokens);
}

/** True when any of the conditions is. */
export function anyOf(...conditions: StopCondition[]): StopCondition {
  return named(`anyOf(${conditions.map((c) => c.name).join(", ")})`, async (ctx) => {
    for (const condition of conditions) if (await condition(ctx)) return true;
    return false;
  });
}

/** True when every condition is (and there is at least one). */
export function allOf(...conditions: StopCondition[]): StopCondition {
  return named(`allOf(${conditions.map((c) => c.name).join(", ")})`, async (ctx) => {
    if (conditions.length === 0) return false;
    for (const condition of conditions) if (!(await condition(ctx))) return false;
    return true;
  });
}

/** The first condition that holds, or undefined. */
export async function firstMatchingCondition(
  conditions: readonly StopCondition[],
  ctx: StopConditionContext,
): Promise<StopCondition | undefined> {
  for (const condition of conditions) if (await condition(ctx)) return condition;
  return undefined;
}
