import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentRuntime } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import {
  type AgentModel,
  type AgentModelRequest,
  type AgentRunResult,
  type AgentTool,
  getToolResults,
  type ToolApprovalRequest,
  toolOutputText,
} from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  createAgentHost,
  createDefaultTools,
  createSession,
  createSpawnAgentTool,
  MemorySessionStore,
} from "../../src/index.js";

// A sub-agent is started by the host of the agent that calls spawn_agent, under that agent's policy narrowed: it
// can never run what its parent may not, it asks its parent's approver, its writes are checkpointed in its
// parent's session, and its model calls and spend count against its parent's limits.

const dir = mkdtempSync(join(tmpdir(), "heddle-subagent-gov-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tool that records every run; `bash` stands for any tool with effects. */
function recordingTool(name: string, runs: unknown[]): AgentTool {
  return {
    name,
    description: `${name} does something with effects`,
    inputSchema: { type: "object", properties: { command: { type: "string" } } },
    execute: (input) => {
      runs.push(input);
      return `${name} ran`;
    },
  };
}

const spawnCall = (tools?: string[], id = "call_spawn") => ({
  toolCalls: [{ id, name: "spawn_agent", input: { description: "a task", prompt: "do it", ...(tools && { tools }) } }],
});

function toolResult(result: AgentRunResult, toolCallId: string) {
  for (const message of result.messages)
    for (const part of getToolResults(message)) if (part.toolCallId === toolCallId) return part;
  return undefined;
}

const denyAll = (seen: ToolApprovalRequest[]) => (request: ToolApprovalRequest) => {
  seen.push(request);
  return { approved: false, reason: "the parent denies everything" };
};

/** The lead as a bare AgentRuntime, or as a session turn: the same policy must hold for its children either way. */
const parents: Array<[string, (config: LeadConfig) => Promise<AgentRunResult>]> = [
  ["a bare AgentRuntime", (config) => new AgentRuntime({ ...config, agentId: "lead" }).run("go")],
  [
    "a session",
    async (config) => {
      const session = await createSession({ ...config, agentId: "lead", store: new MemorySessionStore() });
      try {
        return await session.send("go");
      } finally {
        await session.close();
      }
    },
  ],
];

type LeadConfig = Pick<
  Parameters<typeof createSession>[0],
  "model" | "tools" | "toolPolicies" | "requestToolApproval" | "maxIterations"
> & { model: AgentModel; tools: AgentTool[] };

describe.each(parents)("a sub-agent of %s", (_kind, runLead) => {
  it("cannot run a tool its parent disabled, whatever the spawn list or its own policy says", async () => {
    const runs: unknown[] = [];
    const bash = recordingTool("bash", runs);
    const approvals: ToolApprovalRequest[] = [];
    // A hostile child model calls bash anyway.
    const child = createScriptedModel([
      { toolCalls: [{ id: "child_bash", name: "bash", input: { command: "rm -rf ~" } }] },
      { text: "child done" },
    ]);
    const spawn = createSpawnAgentTool({
      model: child,
      tools: [bash],
      // The spawn tool tries to widen: it cannot.
      toolPolicies: { bash: { enabled: true, autoApprove: true } },
    });
    const lead = createScriptedModel([spawnCall(["bash"], "asks_for_bash"), spawnCall(), { text: "lead done" }]);
    const result = await runLead({
      model: lead,
      tools: [spawn, bash],
      toolPolicies: { bash: { enabled: false }, spawn_agent: { autoApprove: true } },
      requestToolApproval: denyAll(approvals),
    });

    expect(runs).toEqual([]);
    expect(approvals).toEqual([]);
    // Naming the disabled tool is an error result listing what is available.
    expect(toolOutputText(toolResult(result, "asks_for_bash")!.output)).toContain(
      "Unknown tool for the sub-agent: bash",
    );
    // The child was offered no bash, and its call to it anyway was refused.
    expect(child.requests[0]!.tools.map((t) => t.name)).not.toContain("bash");
    const childResults = child.requests[1]!.messages.flatMap(getToolResults);
    expect(childResults).toEqual([expect.objectContaining({ toolCallId: "child_bash", isError: true })]);
  });

  it("asks its parent's approver about a call the parent must ask for, naming itself", async () => {
    const runs: unknown[] = [];
    const write = recordingTool("write", runs);
    const approvals: ToolApprovalRequest[] = [];
    const child = createScriptedModel([
      { toolCalls: [{ id: "child_write", name: "write", input: { command: "x" } }] },
      { text: "child done" },
    ]);
    const spawn = createSpawnAgentTool({
      model: child,
      tools: [write],
      toolPolicies: { write: { autoApprove: true } },
      // A child's own approver that says yes does not replace the parent's.
      requestToolApproval: () => ({ approved: true }),
    });
    await runLead({
      model: createScriptedModel([spawnCall(), { text: "lead done" }]),
      tools: [spawn],
      toolPolicies: { write: { autoApprove: false }, spawn_agent: { autoApprove: true } },
      requestToolApproval: denyAll(approvals),
    });

    expect(runs).toEqual([]);
    expect(approvals).toHaveLength(1);
    const [request] = approvals;
    expect(request!.toolCall).toMatchObject({ toolCallId: "child_write", toolName: "write" });
    expect(request!.parentAgentId).toBe("lead");
    expect(request!.agentId).toMatch(/^agent/);
    expect(request!.agentId).not.toBe("lead");
    expect(child.requests[1]!.messages.flatMap(getToolResults)[0]).toMatchObject({ isError: true });
    expect(toolOutputText(child.requests[1]!.messages.flatMap(getToolResults)[0]!.output)).toContain(
      "the parent denies everything",
    );
  });

  it("counts its model calls against the parent's maxIterations", async () => {
    // A busy child: a different call every time (no loop to detect), never an answer.
    const child = createScriptedModel(
      [(_request, n) => ({ toolCalls: [{ name: "noop", input: { command: `step ${n}` } }] })],
      {
        whenExhausted: "repeat-last",
      },
    );
    const noop = recordingTool("noop", []);
    const spawn = createSpawnAgentTool({ model: child, tools: [noop], maxIterations: 50 });
    const lead = createScriptedModel([spawnCall(), { text: "lead done" }]);
    const result = await runLead({ model: lead, tools: [spawn], maxIterations: 6 });

    // The lead made 1 call, so the child got the 5 left; the lead then had none for its answer.
    if (_kind === "a session") {
      expect(child.requests).toHaveLength(5);
      expect(String(toolResult(result, "call_spawn")?.output)).toContain("stopped before finishing: max_iterations");
      expect(lead.requests).toHaveLength(1);
      expect(result).toMatchObject({ status: "incomplete", reason: "max_iterations" });
    } else {
      // A bare runtime has no host to count for it: its own maxIterations counts its own calls only.
      expect(lead.requests).toHaveLength(2);
    }
  });
});

describe("sub-agents under a session host", () => {
  it("write files that the session's rewind({files: true}) puts back", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    writeFileSync(join(workspaceRoot, "notes.txt"), "original\n");
    const child = createScriptedModel([
      {
        toolCalls: [{ id: "child_write", name: "write_file", input: { path: "notes.txt", content: "by the child\n" } }],
      },
      { text: "wrote it" },
    ]);
    // No tools of its own: the child gets the lead's, checkpointed into the lead's session.
    const spawn = createSpawnAgentTool({ model: child, excludeTools: ["ask_user", "submit_result"] });
    const store = new MemorySessionStore();
    const session = await createSession({
      model: createScriptedModel([spawnCall(["write_file"]), { text: "lead done" }]),
      store,
      workspaceRoot,
      tools: [...createDefaultTools({ workspaceRoot, preset: "full" }), spawn],
      toolPolicies: { "*": { autoApprove: true } },
      compaction: false,
    });
    await session.send("change the notes");
    expect(readFileSync(join(workspaceRoot, "notes.txt"), "utf8")).toBe("by the child\n");
    const [first, spawning] = await session.history();
    // The child's write belongs to the lead's message that started it.
    expect(await store.listFileCheckpoints(session.id)).toEqual([
      expect.objectContaining({ path: "notes.txt", messageId: spawning!.id }),
    ]);

    expect(await session.previewRewind(first!.id)).toMatchObject({ files: [{ path: "notes.txt", action: "restore" }] });
    await session.rewind(first!.id, { files: true });
    expect(readFileSync(join(workspaceRoot, "notes.txt"), "utf8")).toBe("original\n");
    await session.close();
  });

  it("run in the lead's sandbox when they use the lead's tools (real bubblewrap)", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    const outside = mkdtempSync(join(dir, "outside-"));
    const child = createScriptedModel([
      {
        toolCalls: [
          {
            name: "bash",
            input: { command: `echo in > inside.txt; echo out > ${outside}/escape.txt; echo rc=$?` },
          },
        ],
      },
      { text: "tried" },
    ]);
    const session = await createSession({
      model: createScriptedModel([spawnCall(["bash"]), { text: "lead done" }]),
      store: new MemorySessionStore(),
      workspaceRoot,
      tools: [
        ...createDefaultTools({ workspaceRoot, preset: "full", sandbox: {} }),
        createSpawnAgentTool({ model: child }),
      ],
      toolPolicies: { "*": { autoApprove: true } },
      compaction: false,
    });
    await session.send("try to escape");
    await session.close();
    const output = toolOutputText(child.requests[1]!.messages.flatMap(getToolResults)[0]!.output);
    expect(output).toMatch(/rc=[1-9]/);
    expect(readFileSync(join(workspaceRoot, "inside.txt"), "utf8")).toBe("in\n");
    expect(() => readFileSync(join(outside, "escape.txt"))).toThrow();
  });

  it("run the session's command hooks only: a spawn tool cannot bring its own", () => {
    expect(() =>
      createSpawnAgentTool({
        model: createScriptedModel([]),
        tools: [],
        commandHooks: { workspaceRoot: dir } as never,
      }),
    ).toThrow(expect.objectContaining({ code: "team_invalid_input", message: expect.stringContaining("host") }));
  });

  it("stay under maxSpawns: a depth-5, 3-wide tree makes fewer than 100 model calls", async () => {
    // Every agent spawns three children, then answers once their results are in.
    let calls = 0;
    const model = createScriptedModel(
      [
        (request: AgentModelRequest) => {
          calls++;
          const hasResults = request.messages.some((m) => getToolResults(m).length > 0);
          if (hasResults) return { text: "done" };
          return {
            toolCalls: [1, 2, 3].map((n) => ({
              name: "spawn_agent",
              input: { description: `part ${n}`, prompt: `part ${n}` },
            })),
          };
        },
      ],
      { whenExhausted: "repeat-last" },
    );
    const spawn = createSpawnAgentTool({ model, tools: [], maxDepth: 5 });
    const host = createAgentHost();
    const result = await host.createAgent({ model, tools: [spawn], maxIterations: Number.POSITIVE_INFINITY }).run("go");

    expect(result.status).toBe("completed");
    expect(calls).toBeLessThan(100);
    // The cap refused the rest, and said so to the model.
    const refused = model.requests
      .flatMap((request) => request.messages.flatMap(getToolResults))
      .filter((part) => toolOutputText(part.output).includes("No more sub-agents"));
    expect(refused.length).toBeGreaterThan(0);
  });
});
