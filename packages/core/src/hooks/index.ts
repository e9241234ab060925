export {
  type HookDecision,
  HookExecutionError,
  type HookOutput,
  normalizeHookOutput,
} from "./command-hook.js";
export {
  createHookEngine,
  type HookEngine,
  type HookEngineOptions,
  type HookEventInput,
  type HookOutcome,
  type HookPayload,
  type ProgrammaticHook,
  type ProgrammaticHooks,
} from "./hook-engine.js";
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
