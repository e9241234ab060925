/**
 * The rule this file keeps: every model call and every dollar an agent spends count against its own limits and
 * those of everything above it (the run that spawned it, its team), and an agent stops at its next model call
 * once any of them is used up. A child therefore never gets more than its parent has left, and siblings running in
 * parallel share what is left. Counters live in memory, per run tree and per team.
 */
import type { AgentHooks, AgentRunReason, AgentRuntimeEvent, BeforeModelResult } from "@heddle/shared";
import { minLimit } from "./policy.js";

/** What a scope may use up: model calls and spend. */
export interface ScopeLimits {
  maxIterations?: number;
  maxBudgetUsd?: number;
}

/** Why a scope stopped an agent. */
export interface LimitStop {
  reason: Extract<AgentRunReason, "max_iterations" | "max_budget">;
  detail: string;
}

export interface LimitScopeOptions {
  /** A run is one agent's run; a team holds its teammates' runs. Spawn counts stop at the topmost run. */
  kind: "run" | "team";
  /** Who the scope is, in stop messages: "the parent agent", "the team". */
  label: string;
  limits?: ScopeLimits;
  parent?: LimitScope;
  /**
   * Whether spend recorded here is added to the parent too. Not for a sub-agent: its spawn tool reports the
   * child's usage to the parent run, which records it itself. Yes for a teammate, whose spend nothing else reports.
   */
  spendRollsUp?: boolean;
  /** What is left of a budget kept outside the scopes (a host-less parent run's `remainingBudgetUsd`). */
  externalBudgetLeft?: () => number | undefined;
}

/** One node of the limit tree. */
export class LimitScope {
  readonly kind: "run" | "team";
  readonly label: string;
  readonly limits: ScopeLimits;
  readonly parent: LimitScope | undefined;
  readonly #spendRollsUp: boolean;
  readonly #externalBudgetLeft: (() => number | undefined) | undefined;
  iterations = 0;
  spentUsd = 0;
  /** Sub-agents started under this run tree (kept on the topmost run scope). */
  spawns = 0;

  constructor(options: LimitScopeOptions) {
    this.kind = options.kind;
    this.label = options.label;
    this.limits = options.limits ?? {};
    this.parent = options.parent;
    this.#spendRollsUp = options.spendRollsUp ?? false;
    this.#externalBudgetLeft = options.externalBudgetLeft;
  }

  /** The topmost run scope of this run tree (a team above it is not part of the tree). */
  runRoot(): LimitScope {
    let scope: LimitScope = this;
    while (scope.parent?.kind === "run") scope = scope.parent;
    return scope;
  }

  /** The first used-up limit from this scope upward, if any. */
  exhausted(): LimitStop | undefined {
    for (let scope: LimitScope | undefined = this; scope; scope = scope.parent) {
      const { maxIterations, maxBudgetUsd } = scope.limits;
      if (maxIterations !== undefined && scope.iterations >= maxIterations)
        return { reason: "max_iterations", detail: `${scope.label} reached its limit of ${maxIterations} model calls` };
      if (maxBudgetUsd !== undefined && scope.spentUsd >= maxBudgetUsd)
        return { reason: "max_budget", detail: `${scope.label} reached its budget of $${maxBudgetUsd}` };
      const external = scope.#externalBudgetLeft?.();
      if (external !== undefined && external <= 0)
        return { reason: "max_budget", detail: `${scope.label} has no budget left` };
    }
    return undefined;
  }

  /** Model calls left on the way up (the smallest), or `undefined` when nothing limits them. */
  iterationsLeft(): number | undefined {
    let left: number | undefined;
    for (let scope: LimitScope | undefined = this; scope; scope = scope.parent) {
      const max = scope.limits.maxIterations;
      if (max !== undefined) left = minLimit(left, Math.max(0, max - scope.iterations));
    }
    return left;
  }

  /** Budget left on the way up (the smallest), or `undefined` when nothing limits spend. */
  budgetLeft(): number | undefined {
    let left: number | undefined;
    for (let scope: LimitScope | undefined = this; scope; scope = scope.parent) {
      const max = scope.limits.maxBudgetUsd;
      if (max !== undefined) left = minLimit(left, Math.max(0, max - scope.spentUsd));
      left = minLimit(left, scope.#externalBudgetLeft?.());
    }
    return left;
  }

  /** Counts one model call here and in every scope above. */
  countIteration(): void {
    for (let scope: LimitScope | undefined = this; scope; scope = scope.parent) scope.iterations++;
  }

  /** Records spend here, and above for as long as the links roll spend up. */
  addSpend(usd: number): void {
    if (!(usd > 0)) return;
    for (let scope: LimitScope | undefined = this; scope; scope = scope.#spendRollsUp ? scope.parent : undefined)
      scope.spentUsd += usd;
  }

  /**
   * The hooks that keep an agent's run to this scope: before each model call, stop if a limit on the way up is used
   * up, else count the call; each usage delta is recorded as it arrives.
   */
  hooks(): AgentHooks {
    return {
      beforeModel: (): BeforeModelResult | undefined => {
        const stop = this.exhausted();
        if (stop) return { stop: true, reason: stop.reason, detail: stop.detail };
        this.countIteration();
        return undefined;
      },
      onEvent: (event: AgentRuntimeEvent) => {
        if (event.type === "usage-updated") this.addSpend(event.delta.costUsd);
      },
    };
  }
}
