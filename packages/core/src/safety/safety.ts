import type { AgentHooks } from "@heddle/shared";
import { type CircuitBreakerOptions, type CircuitBreakerSignal, createCircuitBreakerHooks } from "./circuit-breaker.js";
import { createLoopDetectionHooks, type LoopDetectionOptions, type LoopSignal } from "./loop-detection.js";

/** Safety settings: both guards are on by default; `false` turns one off. */
export interface SafetyOptions {
  loopDetection?: false | LoopDetectionOptions;
  circuitBreaker?: false | CircuitBreakerOptions;
}

export interface SafetyListeners {
  onLoopSignal?(signal: LoopSignal): void;
  onCircuitBreaker?(signal: CircuitBreakerSignal): void;
}

/** The safety guards as hook sets for one `send` (fresh counters), ready to add to an `AgentRuntime`'s hooks. */
export function createSafetyHooks(options: SafetyOptions = {}, listeners: SafetyListeners = {}): AgentHooks[] {
  const sets: AgentHooks[] = [];
  if (options.loopDetection !== false)
    sets.push(createLoopDetectionHooks(options.loopDetection ?? {}, listeners.onLoopSignal));
  if (options.circuitBreaker !== false)
    sets.push(createCircuitBreakerHooks(options.circuitBreaker ?? {}, listeners.onCircuitBreaker));
  return sets;
}
