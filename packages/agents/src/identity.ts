import type { AgentIdentity } from "@heddle/shared";

/**
 * An agent's identity: the id it runs under and the identity fields its config names (absent ones left out, so a
 * context never carries `undefined` keys). Hook contexts, plugin setup and snapshots all take it from here.
 */
export function agentIdentity(agentId: string, config: Partial<AgentIdentity>): AgentIdentity {
  const identity: AgentIdentity = { agentId };
  if (config.sessionId !== undefined) identity.sessionId = config.sessionId;
  if (config.conversationId !== undefined) identity.conversationId = config.conversationId;
  if (config.parentAgentId !== undefined) identity.parentAgentId = config.parentAgentId;
  if (config.agentRole !== undefined) identity.agentRole = config.agentRole;
  return identity;
}
