export {
  type HookDecision,
  HookExecutionError,
  type HookOutput,
  normalizeHookOutput,
} from "./command-hook.js";
export {
  createHookEngine,
  HOOK_EVENTS_FAILING_CLOSED,
  type HookEngine,
  type HookEngineOptions,
  type HookEventInput,
  type HookOutcome,
  type HookPayload,
} from "./hook-engine.js";
export { hookEnvironment, isSecretEnvName } from "./hook-env.js";
export {
  type CommandHookConfig,
  HOOK_EVENTS,
  type HookEventName,
  type HookMatcherConfig,
  type HookSettings,
  HookSettingsError,
  loadHookSettingsFile,
  matchesHook,
  parseHookSettings,
  settingsFilePath,
} from "./settings.js";
