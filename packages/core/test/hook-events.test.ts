import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentTool, ToolApprovalRequest } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import {
  AgentTeamManager,
  createSession,
  type HookEngineOptions,
  InMemoryTeamMailbox,
  MemorySessionStore,
  type TeammateEvent,
} from "../src/index.js";

// The hook events Claude Code has beside the first ten: PermissionRequest and Notification around the approver,
// Setup when a session is created, TeammateIdle and TaskCompleted in a team. Real command hooks (child processes).

const dir = mkdtempSync(join(tmpdir(), "heddle-hook-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A hook that appends its payload as one line to `file` in the workspace, and prints `stdout`. */
const record = (file: string, stdout = "") => ({
  type: "command" as const,
  command: `cat >> "${file}"; echo >> "${file}"${stdout ? `; echo '${stdout}'` : ""}`,
});
const lines = (workspaceRoot: string, file: string) =>
  existsSync(join(workspaceRoot, file))
    ? readFileSync(join(workspaceRoot, file), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line))
    : [];

const tool = (name: string, runs: string[]): AgentTool => ({
  name,
  description: name,
  inputSchema: { type: "object" },
  execute: () => {
    runs.push(name);
    return `${name} ran`;
  },
});

describe("PermissionRequest and Notification", () => {
  it("a PermissionRequest hook decides in the person's place; otherwise a Notification fires and the person is asked", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    const commandHooks: Omit<HookEngineOptions, "workspaceRoot"> = {
      loadSettingsFile: false,
      settings: {
        hooks: {
          PermissionRequest: [
            { matcher: "deploy", hooks: [record("permission.log", '{"decision":"deny","reason":"no deploys today"}')] },
            { matcher: "lint", hooks: [record("permission.log", '{"decision":"allow"}')] },
            { matcher: "build", hooks: [record("permission.log")] },
          ],
          Notification: [{ matcher: "permission_prompt", hooks: [record("notification.log")] }],
        },
      },
    };
    const runs: string[] = [];
    const asked: ToolApprovalRequest[] = [];
    const session = await createSession({
      model: createScriptedModel([
        {
          toolCalls: [
            { id: "d", name: "deploy", input: {} },
            { id: "l", name: "lint", input: {} },
            { id: "b", name: "build", input: {} },
          ],
        },
        { text: "done" },
      ]),
      store: new MemorySessionStore(),
      workspaceRoot,
      commandHooks,
      tools: [tool("deploy", runs), tool("lint", runs), tool("build", runs)],
      requestToolApproval: (request) => {
        asked.push(request);
        return { approved: true };
      },
      compaction: false,
    });
    await session.send("ship");
    await session.close();

    // deploy: denied by the hook; lint: allowed by the hook; build: no decision, so the person was asked.
    expect(runs).toEqual(["lint", "build"]);
    expect(asked.map((r) => r.toolCall.toolName)).toEqual(["build"]);
    expect(lines(workspaceRoot, "permission.log").map((p) => [p.hook_event_name, p.tool_name])).toEqual([
      ["PermissionRequest", "deploy"],
      ["PermissionRequest", "lint"],
      ["PermissionRequest", "build"],
    ]);
    expect(lines(workspaceRoot, "notification.log")).toEqual([
      expect.objectContaining({ hook_event_name: "Notification", notification_type: "permission_prompt" }),
    ]);
    expect(lines(workspaceRoot, "notification.log")[0].message).toContain("build");
  });
});

describe("Setup", () => {
  it("fires once when a session is created, before SessionStart, and not when it is opened again", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    const store = new MemorySessionStore();
    const commandHooks = {
      loadSettingsFile: false,
      settings: {
        hooks: {
          Setup: [{ matcher: "init", hooks: [record("events.log")] }],
          SessionStart: [{ hooks: [record("events.log")] }],
        },
      },
    };
    const model = createScriptedModel([{ text: "a" }, { text: "b" }]);
    const created = await createSession({ model, store, workspaceRoot, commandHooks, compaction: false });
    await created.send("one");
    await created.close();
    const { openSession } = await import("../src/index.js");
    const reopened = await openSession({
      model,
      store,
      workspaceRoot,
      commandHooks,
      compaction: false,
      id: created.id,
    });
    await reopened.send("two");
    await reopened.close();
    expect(lines(workspaceRoot, "events.log").map((p) => [p.hook_event_name, p.trigger ?? p.source])).toEqual([
      ["Setup", "init"],
      ["SessionStart", "startup"],
      ["SessionStart", "resume"],
    ]);
  });
});

describe("TeammateIdle and TaskCompleted", () => {
  it("fire for each teammate from the team's hooks", async () => {
    const workspaceRoot = mkdtempSync(join(dir, "ws-"));
    const manager = new AgentTeamManager({
      mailbox: new InMemoryTeamMailbox(),
      model: createScriptedModel([{ text: "reviewed" }]),
      workspaceRoot,
      commandHooks: {
        loadSettingsFile: false,
        settings: {
          hooks: {
            TeammateIdle: [{ hooks: [record("team.log")] }],
            TaskCompleted: [{ hooks: [record("team.log")] }],
          },
        },
      },
      compaction: false,
      teamId: "t1",
    });
    const idle = new Promise<TeammateEvent>((resolve) => {
      const stop = manager.subscribe((event) => {
        if (event.type === "idle") {
          stop();
          resolve(event);
        }
      });
    });
    manager.spawn({ agentId: "reviewer", role: "code reviewer" }, "Review PR 42.");
    await idle;
    await manager.stopAll();
    const events = lines(workspaceRoot, "team.log");
    expect(events.map((p) => p.hook_event_name)).toEqual(["TaskCompleted", "TeammateIdle"]);
    expect(events[0]).toMatchObject({
      agent_id: "reviewer",
      agent_type: "code reviewer",
      team_name: "t1",
      task_subject: "Review PR 42.",
      output_text: "reviewed",
    });
  });
});
