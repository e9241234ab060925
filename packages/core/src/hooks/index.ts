export {
  CLAUDE_BLOCKING_EVENTS,
  CLAUDE_TOOL_NAMES,
  claudeToolNames,
  fromClaudeToolInput,
  toClaudePayload,
  toClaudeToolInput,
  toClaudeToolResponse,
} from "./claude-compat.js";
export {
  CLAUDE_CODE_HOOK_EVENTS,
  CLAUDE_SETTINGS_FILES,
  type ClaudeSettingsNote,
  type ClaudeSettingsSource,
  loadClaudeHookSettings,
} from "./claude-settings.js";
export {
  type HookDecision,
  HookExecutionError,
  type HookOutput,
  normalizeHookOutput,
} from "./command-hook.js";
export {
  HOOK_EVENTS_FAILING_CLOSED,
  type HookEngine,
  type HookEngineOptions,
  type HookEventInput,
  type HookOutcome,
  type HookPayload,
} from "./engine-types.js";
export { createHookEngine } from "./hook-engine.js";
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
