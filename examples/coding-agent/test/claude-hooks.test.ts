import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createScriptedModel } from "@heddle/llms/testing";
import type { AgentModelRequest, ToolApprovalRequest } from "@heddle/shared";
import { getMessageText } from "@heddle/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type HostConfig, startSession } from "../src/host.js";
import { openStore, sessionStorage } from "../src/session-store.js";
import { CLAUDE_HOOK_CASES } from "./support/claude-hook-cases.js";
import type { CaseRun, HookCase } from "./support/claude-hook-kit.js";

// Claude Code's documented hook examples (its hooks guide and reference), each placed unchanged in a temporary
// project's .claude/settings.json, run through heddle-code's own host (the code `heddle-code` starts sessions with)
// with real hook processes. Each case checks what Claude Code's documentation says the hook does.
let base: string;
const saved = { PATH: process.env.PATH, HOME: process.env.HOME };

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-claude-hooks-"));
  const bin = join(base, "bin");
  const home = join(base, "home");
  mkdirSync(join(home, ".claude"), { recursive: true });
  // The documentation's examples call prettier (through npx) and notify-send: stand-ins that record what they did.
  const tool = (name: string, body: string) => {
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  tool(
    "npx",
    '[ "$1" = prettier ] || exit 1\nshift\n[ "$1" = --write ] && shift\nfor f in "$@"; do sed -i "s/\\"/\'/g" "$f"; done',
  );
  tool("notify-send", 'echo "$@" >> "$HOME/notified.log"');
  process.env.PATH = `${bin}:${process.env.PATH}`;
  process.env.HOME = home;
});
afterAll(() => {
  process.env.PATH = saved.PATH;
  process.env.HOME = saved.HOME;
  rmSync(base, { recursive: true, force: true });
});

async function runCase(c: HookCase): Promise<CaseRun> {
  const root = mkdtempSync(join(base, "project-"));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
    if (/\.(sh|py)$/.test(file)) chmodSync(join(root, file), 0o755);
  };
  write(".claude/settings.json", JSON.stringify(c.settings, null, 2));
  for (const [file, text] of Object.entries(c.files ?? {})) write(file, text);
  const model = createScriptedModel(c.model);
  const approvals: ToolApprovalRequest[] = [];
  const config: HostConfig = {
    workspaceRoot: root,
    model,
    preset: c.preset ?? "edit",
    conventions: { instructions: true, skills: true, claude: true },
    storage: sessionStorage(root, true),
    trustProject: async () => true,
    // The person declines whatever they are asked: a call that runs did not need them.
    approve: async (request) => {
      approvals.push(request);
      return { approved: false, reason: "The user declined this call." };
    },
  };
  const logged: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
  const store = openStore(config.storage);
  try {
    const session = await startSession(config, store);
    const result = c.run ? await c.run(session) : await session.send(c.prompt ?? "Go ahead.");
    await session.close();
    const text = (request: AgentModelRequest | undefined) =>
      request
        ? [
            request.systemPrompt ?? "",
            ...request.messages.map((m) => `${getMessageText(m)} ${JSON.stringify(m.content)}`),
          ].join("\n")
        : "";
    return {
      root,
      home: process.env.HOME!,
      result,
      requests: model.requests,
      approvals,
      logs: logged.join(""),
      read: (file) => readFileSync(join(root, file), "utf8"),
      exists: (file) => existsSync(join(root, file)),
      text,
    };
  } finally {
    await store.close();
    spy.mockRestore();
  }
}

describe("Claude Code's documented hooks, unchanged in .claude/settings.json", () => {
  it("the table has 22 cases", () => {
    expect(CLAUDE_HOOK_CASES).toHaveLength(22);
  });
  for (const [i, c] of CLAUDE_HOOK_CASES.entries()) {
    it(`${i + 1}. ${c.name}`, async () => {
      c.check(await runCase(c));
    });
  }
});
