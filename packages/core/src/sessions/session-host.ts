import { FileCheckpointer } from "../checkpoints/index.js";
import { createHookEngine } from "../hooks/index.js";
import { type AgentHost, createAgentHost, type GuidanceOptions, type PolicyNarrowing } from "../host/index.js";
import { InvalidSessionInputError } from "./errors.js";
import type { SessionOptions } from "./session-options.js";
import type { SessionStore } from "./store.js";

/**
 * The host a session's turns run under. Without `options.host`, the session's own options are its policy (the
 * root of a tree of hosts). With one (a teammate's session under its team), the session's tool rules, approver,
 * limits and safety only narrow the parent's, and the command hooks are the parent's. Either way a session with a
 * workspace records its file writes in its own store.
 */
export function createSessionHost(options: SessionOptions, session: { id: string; store: SessionStore }): AgentHost {
  const checkpointer = options.workspaceRoot
    ? new FileCheckpointer({ store: session.store, sessionId: session.id, workspaceRoot: options.workspaceRoot })
    : undefined;
  const guidance: GuidanceOptions | undefined =
    options.todoReminder !== undefined || options.skillsDirs !== undefined
      ? {
          ...(options.todoReminder !== undefined && { todoReminder: options.todoReminder }),
          ...(options.skillsDirs !== undefined && { skillsDirs: options.skillsDirs }),
          baseDir: options.workspaceRoot ?? process.cwd(),
        }
      : undefined;
  if (options.host) {
    if (options.commandHooks !== undefined)
      throw new InvalidSessionInputError(
        'a session under a parent "host" runs the parent\'s command hooks: "commandHooks" cannot be given too',
      );
    const narrowing: PolicyNarrowing = {
      ...(options.toolPolicies && { toolPolicies: options.toolPolicies }),
      ...(options.requestToolApproval && { requestToolApproval: options.requestToolApproval.bind(options) }),
      ...(options.maxIterations !== undefined && { maxIterations: options.maxIterations }),
      ...(options.maxBudgetUsd !== undefined && { maxBudgetUsd: options.maxBudgetUsd }),
      ...(options.safety !== undefined && { safety: options.safety }),
    };
    return options.host.child(narrowing, {
      ...(checkpointer && { checkpointer }),
      ...(guidance && { guidance }),
      ...(options.telemetry && { telemetry: options.telemetry }),
    });
  }
  const commandHooks = options.commandHooks
    ? createHookEngine({
        logger: options.logger,
        ...options.commandHooks,
        workspaceRoot: options.workspaceRoot!,
        sessionId: session.id,
      })
    : undefined;
  return createAgentHost({
    ...(options.toolPolicies && { toolPolicies: options.toolPolicies }),
    ...(options.requestToolApproval && { requestToolApproval: options.requestToolApproval.bind(options) }),
    ...(commandHooks && { commandHooks }),
    ...(checkpointer && { checkpointer }),
    ...(options.safety !== undefined && { safety: options.safety }),
    guidance: guidance ?? { baseDir: options.workspaceRoot ?? process.cwd() },
    ...(options.telemetry && { telemetry: options.telemetry }),
    ...(options.maxIterations !== undefined && { maxIterations: options.maxIterations }),
    ...(options.maxBudgetUsd !== undefined && { maxBudgetUsd: options.maxBudgetUsd }),
  });
}
