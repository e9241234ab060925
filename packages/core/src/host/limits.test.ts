import { describe, expect, it } from "vitest";
import { LimitScope } from "./limits.js";

describe("LimitScope", () => {
  it("stops at exactly maxIterations model calls, counted here and in every scope above", () => {
    const parent = new LimitScope({ kind: "run", label: "the parent agent", limits: { maxIterations: 3 } });
    const child = new LimitScope({ kind: "run", label: "the sub-agent", parent });
    const hooks = child.hooks();
    const beforeModel = hooks.beforeModel as (ctx: never) => unknown;
    expect(beforeModel({} as never)).toBeUndefined();
    child.countIteration();
    expect(parent.iterations).toBe(2);
    expect(child.iterationsLeft()).toBe(1);
    expect(beforeModel({} as never)).toBeUndefined();
    expect(child.iterationsLeft()).toBe(0);
    expect(beforeModel({} as never)).toEqual({
      stop: true,
      reason: "max_iterations",
      detail: "the parent agent reached its limit of 3 model calls",
    });
    expect(parent.iterations).toBe(3);
  });

  it("stops once the spend reaches maxBudgetUsd exactly, and reports what is left on the way up", () => {
    const team = new LimitScope({ kind: "team", label: "the team", limits: { maxBudgetUsd: 1 } });
    const run = new LimitScope({
      kind: "run",
      label: "a teammate",
      limits: { maxBudgetUsd: 5 },
      parent: team,
      spendRollsUp: true,
    });
    (run.hooks().onEvent as (event: never) => unknown)({ type: "usage-updated", delta: { costUsd: 0.25 } } as never);
    expect(team.spentUsd).toBe(0.25);
    expect(run.budgetLeft()).toBe(0.75);
    expect(run.exhausted()).toBeUndefined();
    run.addSpend(0.75);
    expect(run.budgetLeft()).toBe(0);
    expect(run.exhausted()).toEqual({ reason: "max_budget", detail: "the team reached its budget of $1" });
    // Spend that is not positive is not spend.
    run.addSpend(-3);
    run.addSpend(Number.NaN);
    expect(run.spentUsd).toBe(1);
  });

  it("keeps a sub-agent's spend to itself unless told it rolls up", () => {
    const parent = new LimitScope({ kind: "run", label: "the parent agent", limits: { maxBudgetUsd: 1 } });
    const child = new LimitScope({ kind: "run", label: "the sub-agent", parent });
    child.addSpend(2);
    expect(parent.spentUsd).toBe(0);
    expect(child.exhausted()).toBeUndefined();
    expect(child.budgetLeft()).toBe(1);
  });

  it("stops when a budget kept outside the scopes has nothing left", () => {
    let left = 0.5;
    const scope = new LimitScope({ kind: "run", label: "the parent agent", externalBudgetLeft: () => left });
    const child = new LimitScope({ kind: "run", label: "the sub-agent", parent: scope, limits: { maxBudgetUsd: 2 } });
    expect(child.budgetLeft()).toBe(0.5);
    expect(child.exhausted()).toBeUndefined();
    left = 0;
    expect(child.exhausted()).toEqual({ reason: "max_budget", detail: "the parent agent has no budget left" });
  });

  it("has no limits left to report when nothing limits it", () => {
    const scope = new LimitScope({ kind: "run", label: "a run" });
    expect(scope.iterationsLeft()).toBeUndefined();
    expect(scope.budgetLeft()).toBeUndefined();
    expect(scope.runRoot()).toBe(scope);
    const team = new LimitScope({ kind: "team", label: "the team" });
    const top = new LimitScope({ kind: "run", label: "lead", parent: team });
    const below = new LimitScope({ kind: "run", label: "child", parent: top });
    expect(below.runRoot()).toBe(top);
  });
});
