/** Plugins: part of Heddle's public contract (see `index.ts`). */

import type { AgentHooks } from "./hooks.js";
import type { AgentTool } from "./tools.js";

/** What a plugin's `setup` receives. */
export interface PluginSetupContext {
  agentId: string;
  sessionId?: string;
  conversationId?: string;
  /** Host-provided values (a workspace root, a logger, ...). */
  metadata: { [key: string]: unknown };
}

/** What a plugin contributes. */
export interface PluginSetupResult {
  tools?: AgentTool[];
  hooks?: AgentHooks;
}

/** A plugin: set up once, lazily, before the first run. */
export interface AgentPlugin {
  name: string;
  setup(ctx: PluginSetupContext): PluginSetupResult | Promise<PluginSetupResult>;
}
