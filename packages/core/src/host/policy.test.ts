import type { AgentTool, ToolApprovalRequest, ToolPolicy } from "@heddle/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  narrowApprover,
  narrowPolicy,
  narrowToolPolicies,
  policyOf,
  type ToolApprover,
  type ToolPolicies,
} from "./policy.js";

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

  it("passes an edited input from the child's approver to the parent's, and returns the last edit", async () => {
    const seen: unknown[] = [];
    const approver = narrowApprover(
      {
        toolPolicies: { bash: { autoApprove: false } },
        requestToolApproval: (request) => {
          seen.push(request.input, request.toolCall.input);
          return { approved: true, updatedInput: { command: "ls -la" } };
        },
      },
      { requestToolApproval: () => ({ approved: true, updatedInput: { command: "ls" } }) },
    )!;
    const decision = await approver(request("bash", { command: "rm -rf /" }));
    expect(seen).toEqual([{ command: "ls" }, { command: "ls" }]);
    expect(decision).toEqual({ approved: true, updatedInput: { command: "ls -la" } });
    // An edit by the child alone still reaches the caller.
    const childOnly = narrowApprover(
      {},
      { requestToolApproval: () => ({ approved: true, reason: "ok", updatedInput: { command: "pwd" } }) },
    )!;
    expect(await childOnly(request("bash", { command: "x" }))).toEqual({
      approved: true,
      reason: "ok",
      updatedInput: { command: "pwd" },
    });
    // No edit: the decision is returned as it was given.
    const plain = narrowApprover({}, { requestToolApproval: () => ({ approved: true, reason: "fine" }) })!;
    expect(await plain(request("bash", {}))).toEqual({ approved: true, reason: "fine" });
  });

  it("returns a denial as given, and denies when an approver gives nothing or the parent must ask and cannot", async () => {
    const parentCalls: string[] = [];
    const denied = narrowApprover(
      { toolPolicies: { bash: { autoApprove: false } }, requestToolApproval: approverOf("yes", parentCalls, "parent") },
      { requestToolApproval: () => ({ approved: false, reason: "not today" }) },
    )!;
    expect(await denied(request("bash", {}))).toEqual({ approved: false, reason: "not today" });
    expect(parentCalls).toEqual([]);
    const silent = narrowApprover({}, { requestToolApproval: () => undefined as never })!;
    expect(await silent(request("bash", {}))).toEqual({ approved: false });
    const silentParent = narrowApprover(
      { toolPolicies: { bash: { autoApprove: false } }, requestToolApproval: () => undefined as never },
      { requestToolApproval: () => ({ approved: true }) },
    )!;
    expect(await silentParent(request("bash", {}))).toEqual({ approved: false });
    const parentless = narrowApprover(
      { toolPolicies: { bash: { autoApprove: false } } },
      { requestToolApproval: () => ({ approved: true }) },
    )!;
    expect(await parentless(request("bash", {}))).toEqual({
      approved: false,
      reason: "this tool needs the parent's approval and the parent has no approver",
    });
  });

  it("asks both sides when a hook asked, even for a call both would auto-approve", async () => {
    const calls: string[] = [];
    const approver = narrowApprover(
      { toolPolicies: { "*": { autoApprove: true } }, requestToolApproval: approverOf("yes", calls, "parent") },
      { toolPolicies: { "*": { autoApprove: true } }, requestToolApproval: approverOf("yes", calls, "child") },
    )!;
    expect(await approver(request("read", {}, true))).toEqual({ approved: true });
    expect(calls).toEqual([]);
    expect(await approver({ ...request("read", {}, true), reason: "a PreToolUse hook asked" })).toEqual({
      approved: true,
    });
    expect(calls).toEqual(["child", "parent"]);
  });

  it("names every tool either side mentions, a tool's own entry over the wildcard, and asks by default", () => {
    expect(narrowToolPolicies({ bash: { enabled: false } }, { "*": { autoApprove: true } })).toEqual({
      "*": { enabled: undefined, autoApprove: undefined },
      bash: { enabled: false, autoApprove: undefined },
    });
    expect(policyOf({ "*": { enabled: false, autoApprove: true }, read: { enabled: true } }, "read")).toEqual({
      enabled: true,
      autoApprove: true,
    });
    expect(policyOf({ "*": { enabled: false } }, "")).toEqual({ enabled: false });
  });
});

function request(toolName: string, input: unknown, readOnly = false): ToolApprovalRequest {
  const tool: AgentTool = { name: toolName, description: "", inputSchema: {}, execute: () => "", readOnly };
  return { toolCall: { toolCallId: "c1", toolName, input }, tool, input };
}
