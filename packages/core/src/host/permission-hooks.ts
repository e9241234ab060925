import type { ToolApprovalDecision, ToolApprovalRequest } from "@heddle/shared";
import type { HookEngine } from "../hooks/index.js";
import type { ToolApprover } from "./policy.js";

/**
 * The approver with the command hooks of a permission prompt around it, as Claude Code runs them: a
 * `PermissionRequest` hook may allow or deny the call in the person's place; when none decides, a `Notification`
 * (`permission_prompt`) says someone is waiting, and the approver is asked. A hook that fails leaves the decision
 * to the approver: the person is always the fallback, never a silent yes.
 */
export function withPermissionHooks(approver: ToolApprover, engine: HookEngine): ToolApprover {
  return async (request: ToolApprovalRequest): Promise<ToolApprovalDecision> => {
    // A Claude Code compatibility-mode PreToolUse hook allowed this call: as there, no one is asked.
    if (engine.hookApproved?.(request.toolCall.toolCallId))
      return { approved: true, reason: "allowed by a PreToolUse hook" };
    const fields = {
      tool_name: request.toolCall.toolName,
      tool_input: request.input,
      tool_use_id: request.toolCall.toolCallId,
      ...(request.agentId !== undefined && { agent_id: request.agentId }),
      ...(request.reason !== undefined && { reason: request.reason }),
    };
    const outcome = await engine.run("PermissionRequest", fields);
    if (outcome.decision === "deny")
      return { approved: false, reason: outcome.reason ?? "Denied by a PermissionRequest hook." };
    if (outcome.decision === "allow")
      return {
        approved: true,
        ...(outcome.reason !== undefined && { reason: outcome.reason }),
        ...(outcome.updatedInput !== undefined && { updatedInput: outcome.updatedInput }),
      };
    await engine.run("Notification", {
      notification_type: "permission_prompt",
      message: `Heddle needs your permission to use ${request.toolCall.toolName}`,
      ...(request.agentId !== undefined && { agent_id: request.agentId }),
    });
    return approver(request);
  };
}
