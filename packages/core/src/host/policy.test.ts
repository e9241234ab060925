import type { AgentTool, ToolApprovalRequest, ToolPolicy } from "@heddle/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { narrowPolicy, policyOf, type ToolApprover, type ToolPolicies } from "./policy.js";

// What the agent loop does with a call, given its tool rules and approver (agents/src/tool-calls.ts: policy, then
// approval): disabled → refused; must ask with no approver → refused; auto-approved or no approver → runs; else
// the approver decides.
async function outcome(
  policies: ToolPolicies | undefined,
  approver: ToolApprover | undefined,
  tool: AgentTool,
): Promise<"ran" | "refused"> {
  const rule = policyOf(policies, tool.name);
  if (rule.enabled === false) return "refused";
  if (!approver && rule.autoApprove === false) return "refused";
  if (!approver || (rule.autoApprove ?? tool.readOnly === true)) return "ran";
  const request: ToolApprovalRequest = {
    toolCall: { toolCallId: "c1", toolName: tool.name, input: {} },
    tool,
    input: {},
  };
  return (await approver(request)).approved ? "ran" : "refused";
}

const NAMES = ["bash", "read", "*"] as const;
const toolPolicy: fc.Arbitrary<ToolPolicy> = fc.record(
  { enabled: fc.constantFrom(true, false, undefined), autoApprove: fc.constantFrom(true, false, undefined) },
  { requiredKeys: [] },
);
const policies: fc.Arbitrary<ToolPolicies | undefined> = fc.option(
  fc.dictionary(fc.constantFrom(...NAMES), toolPolicy, { maxKeys: 3 }),
  { nil: undefined },
);
const approverKind = fc.constantFrom("none", "yes", "no") as fc.Arbitrary<"none" | "yes" | "no">;

function approverOf(kind: "none" | "yes" | "no", calls: string[], who: string): ToolApprover | undefined {
  if (kind === "none") return undefined;
  return () => {
    calls.push(who);
    return { approved: kind === "yes" };
  };
}

describe("narrowPolicy", () => {
  it("a child runs a call exactly where its parent's rules and its own would both run it", async () => {
    await fc.assert(
      fc.asyncProperty(
        policies,
        policies,
        approverKind,
        approverKind,
        fc.constantFrom("bash", "read", "other"),
        fc.boolean(),
        async (parentPolicies, childPolicies, parentKind, childKind, name, readOnly) => {
          const tool: AgentTool = { name, description: name, inputSchema: {}, execute: () => "", readOnly };
          const calls: string[] = [];
          const parentApprover = approverOf(parentKind, calls, "parent");
          const childApprover = approverOf(childKind, calls, "child");
          const parent = await outcome(parentPolicies, parentApprover, tool);
          // The child's own side: a call its rule says must be asked about goes to its own approver, or else to
          // its parent's.
          const mustAsk = policyOf(childPolicies, name).autoApprove === false;
          const child = await outcome(childPolicies, childApprover ?? (mustAsk ? parentApprover : undefined), tool);
          const narrowed = narrowPolicy(
            { toolPolicies: parentPolicies, requestToolApproval: parentApprover },
            { toolPolicies: childPolicies, requestToolApproval: childApprover },
          );
          calls.length = 0;
          const combined = await outcome(narrowed.toolPolicies, narrowed.requestToolApproval, tool);
          expect(combined).toBe(parent === "ran" && child === "ran" ? "ran" : "refused");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("asks the parent's approver whenever the parent would have asked, after the child's own", async () => {
    const calls: string[] = [];
    const narrowed = narrowPolicy(
      { toolPolicies: { bash: { autoApprove: false } }, requestToolApproval: approverOf("yes", calls, "parent") },
      { requestToolApproval: approverOf("yes", calls, "child") },
    );
    const bash: AgentTool = { name: "bash", description: "", inputSchema: {}, execute: () => "" };
    expect(await outcome(narrowed.toolPolicies, narrowed.requestToolApproval, bash)).toBe("ran");
    expect(calls).toEqual(["child", "parent"]);
    // A child that auto-approves the call leaves only the parent's question.
    calls.length = 0;
    const trusting = narrowPolicy(
      { toolPolicies: { bash: { autoApprove: false } }, requestToolApproval: approverOf("yes", calls, "parent") },
      { toolPolicies: { bash: { autoApprove: true } }, requestToolApproval: approverOf("yes", calls, "child") },
    );
    expect(await outcome(trusting.toolPolicies, trusting.requestToolApproval, bash)).toBe("ran");
    expect(calls).toEqual(["parent"]);
  });

  it("keeps limits to the smaller, and safety on unless the parent has it off", () => {
    expect(
      narrowPolicy({ maxIterations: 10, maxBudgetUsd: 1 }, { maxIterations: 50, maxBudgetUsd: 0.5 }),
    ).toMatchObject({ maxIterations: 10, maxBudgetUsd: 0.5 });
    expect(narrowPolicy({}, { safety: false }).safety).toBeUndefined();
    expect(narrowPolicy({ safety: false }, { safety: {} }).safety).toEqual({});
    expect(narrowPolicy({ safety: false }, {}).safety).toBe(false);
  });
});
