/** Who an agent is: part of Heddle's public contract (see `index.ts`). */

/**
 * An agent's identity: the fields that say which agent something belongs to. Every shape that names an agent (the
 * config, hook and plugin contexts, tool contexts, approval requests, events, snapshots) picks its fields from here.
 */
export interface AgentIdentity {
  /** The agent's id (in a config: default a fresh id per runtime). */
  agentId: string;
  /** The session the agent runs in, when it runs in one (traces use it as `gen_ai.conversation.id`). */
  sessionId?: string;
  /** The conversation the agent belongs to, when the host names one (Cline's name; traces fall back to it). */
  conversationId?: string;
  /** The agent that started this one: a sub-agent's or a teammate's parent. */
  parentAgentId?: string;
  /** The agent's role in a team (traces use it as the agent's name). */
  agentRole?: string;
}
