// `mergeHooks` is the loop's own (from @heddle/agents), exported here too as before.
export { mergeHooks } from "@heddle/agents";
export {
  type CircuitBreakerContext,
  type CircuitBreakerDecision,
  type CircuitBreakerOptions,
  type CircuitBreakerSignal,
  createCircuitBreakerHooks,
  judgeLastTurn,
  judgeTurn,
  type TurnFailureKind,
} from "./circuit-breaker.js";
export {
  createLoopDetectionHooks,
  type LoopDetectionOptions,
  type LoopSignal,
  toolCallSignature,
} from "./loop-detection.js";
export { createSafetyHooks, type SafetyListeners, type SafetyOptions } from "./safety.js";
