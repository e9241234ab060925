/** Plugins: part of Heddle's public contract (see `index.ts`). */

import type { AgentHooks } from "./hooks.js";
import type { AgentIdentity } from "./identity.js";
import type { AgentTool } from "./tools.js";

/** What a plugin's `setup` receives. */
export interface PluginSetupContext extends AgentIdentity {
  /** The agent's system prompt, as configured. */
  systemPrompt?: string;
  /** Host-provided values (a workspace root, a logger, ...). */
  metadata: { [key: string]: unknown };
}

/** What a plugin contributes. */
export interface PluginSetupResult {
  tools?: AgentTool[];
  hooks?: AgentHooks;
}

/**
 * A plugin: set up once, lazily, before the first run. `setup` is optional (a plugin may only carry `tools` and
 * `hooks`); a setup that does not settle within the agent's `pluginSetupTimeoutMs` fails the run.
 */
export interface AgentPlugin {
  name: string;
  setup?(ctx: PluginSetupContext): PluginSetupResult | void | Promise<PluginSetupResult | void>;
  /** Tools contributed without a setup step (added before what `setup` returns). */
  tools?: AgentTool[];
  /** Hooks contributed without a setup step (added before what `setup` returns). */
  hooks?: AgentHooks;
}
