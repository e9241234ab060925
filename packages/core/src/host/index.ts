// One agent host: every agent (a session's turn, a teammate's turn, a sub-agent) starts here, under a policy that a
// child can only narrow.
export {
  AgentHost,
  type AgentHostOptions,
  type AgentSpec,
  BIND_TO_HOST,
  type ChildHostOptions,
  createAgentHost,
  type HostBinding,
  type HostedTool,
  isHookEngine,
  isHostedTool,
} from "./agent-host.js";
export { LimitScope, type LimitScopeOptions, type LimitStop, type ScopeLimits } from "./limits.js";
export {
  type AgentPolicy,
  type GuidanceOptions,
  narrowApprover,
  narrowPolicy,
  narrowToolPolicies,
  narrowToolPolicy,
  type PolicyNarrowing,
  policyOf,
  type ToolApprover,
  type ToolPolicies,
} from "./policy.js";
