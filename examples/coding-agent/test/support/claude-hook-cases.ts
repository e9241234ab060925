// Claude Code's documented hook examples as a table: each settings object and script as its documentation shows
// it (the hooks guide, code.claude.com/docs/en/hooks-guide, and the reference, code.claude.com/docs/en/hooks), the
// model's side of the run, and a check of what the documentation says happens. Run by test/claude-hooks.test.ts.
// Where an example names something that does not exist here (ExitPlanMode), the nearest equivalent is used and the
// case says so.
import { readFileSync } from "node:fs";
import { getMessageText } from "@heddle/shared";
import { expect } from "vitest";
import { call, command, type HookCase, on, results, say, twoTurns, withCompaction } from "./claude-hook-kit.js";
import {
  BASH_VALIDATOR,
  BLOCK_RM,
  PROMPT_VALIDATOR,
  PROTECT_FILES,
  STOP_UNTIL_TESTS,
  SUBAGENT_STOP,
} from "./claude-hook-scripts.js";

export const CLAUDE_HOOK_CASES: HookCase[] = [
  {
    name: "PreToolUse matcher Bash logs each command with jq (and does not fire for Write)",
    source: "hooks guide: Log Bash commands",
    settings: on(
      "PreToolUse",
      [
        command(
          `jq -r '"\\(.tool_input.command) - \\(.tool_input.description // "No description")"' >> ~/.claude/bash-command-log.txt`,
        ),
      ],
      "Bash",
    ),
    preset: "full",
    model: [
      call("write_file", { path: "notes.txt", content: "x" }),
      call("bash", { command: "echo hi" }),
      say("Done."),
    ],
    check: ({ home }) => {
      expect(readText(`${home}/.claude/bash-command-log.txt`)).toBe("echo hi - No description\n");
    },
  },
  {
    name: "PostToolUse matcher Edit|Write formats the written file (tool_input.file_path | xargs npx prettier --write)",
    source: "hooks guide: Auto-format code after edits",
    settings: on("PostToolUse", [command("jq -r '.tool_input.file_path' | xargs npx prettier --write")], "Edit|Write"),
    model: [call("write_file", { path: "src/a.js", content: 'const a = "x";\n' }), say("Written.")],
    check: ({ read }) => {
      expect(read("src/a.js")).toBe("const a = 'x';\n");
    },
  },
  {
    name: "Notification runs notify-send when the person's permission is needed",
    source: "hooks guide: Get notified when Claude needs input",
    settings: on("Notification", [command("notify-send 'Claude Code' 'Claude Code needs your attention'")], ""),
    model: [call("bash", { command: "ls" }), say("Listed.")],
    check: ({ home, approvals }) => {
      expect(approvals).toHaveLength(1);
      expect(readText(`${home}/notified.log`)).toBe("Claude Code Claude Code needs your attention\n");
    },
  },
  {
    name: "PreToolUse Edit|Write script in $CLAUDE_PROJECT_DIR blocks .env with exit 2; stderr goes to the model; other files pass",
    source: "hooks guide: Block edits to protected files",
    settings: on("PreToolUse", [command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/protect-files.sh')], "Edit|Write"),
    files: { ".claude/hooks/protect-files.sh": PROTECT_FILES },
    model: [
      call("write_file", { path: ".env", content: "API_KEY=stolen" }),
      call("write_file", { path: "src/ok.js", content: "ok" }),
      say("Done."),
    ],
    check: ({ root, exists, requests }) => {
      expect(exists(".env")).toBe(false);
      expect(exists("src/ok.js")).toBe(true);
      expect(results(requests[1])).toContain(`Blocked: ${root}/.env matches protected pattern '.env'`);
    },
  },
  {
    name: "SessionStart matcher compact puts its stdout back in context after a compaction",
    source: "hooks guide: Re-inject context after compaction",
    settings: on(
      "SessionStart",
      [command("echo 'Reminder: use Bun, not npm. Run bun test before committing. Current sprint: auth refactor.'")],
      "compact",
    ),
    model: [say("Hi."), say("Summary of the conversation."), say("Going on.")],
    run: withCompaction,
    check: ({ requests, text }) => {
      expect(text(requests[0])).not.toContain("Reminder: use Bun");
      expect(text(requests[2])).toContain("Reminder: use Bun, not npm. Run bun test before committing.");
    },
  },
  {
    name: "PermissionRequest answers the prompt in the person's place (decision.behavior allow; matcher Bash for ExitPlanMode)",
    source: "hooks guide: Auto-approve specific permission prompts",
    settings: on(
      "PermissionRequest",
      [
        command(
          `echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}'`,
        ),
      ],
      "Bash",
    ),
    model: [call("bash", { command: "echo approved > approved.txt" }), say("Ran.")],
    check: ({ approvals, exists }) => {
      expect(approvals).toHaveLength(0);
      expect(exists("approved.txt")).toBe(true);
    },
  },
  {
    name: "PreToolUse JSON permissionDecision deny stops the call; its reason goes to the model",
    source: "hooks reference: PreToolUse decision control (block-rm.sh)",
    settings: on("PreToolUse", [command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/block-rm.sh')], "Bash"),
    files: { ".claude/hooks/block-rm.sh": BLOCK_RM, "keep/file.txt": "keep" },
    preset: "full",
    model: [call("bash", { command: "rm -rf keep" }), say("Could not.")],
    check: ({ exists, requests }) => {
      expect(exists("keep/file.txt")).toBe(true);
      expect(results(requests[1])).toContain("Destructive command blocked by hook");
    },
  },
  {
    name: "PreToolUse JSON permissionDecision allow skips the permission prompt",
    source: "hooks reference: PreToolUse decision control",
    settings: on(
      "PreToolUse",
      [
        command(
          `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "My reason here"}}'`,
        ),
      ],
      "Bash",
    ),
    model: [call("bash", { command: "touch allowed.txt" }), say("Ran.")],
    check: ({ approvals, exists }) => {
      expect(approvals).toHaveLength(0);
      expect(exists("allowed.txt")).toBe(true);
    },
  },
  {
    name: "PreToolUse JSON permissionDecision ask puts the call before the person, with the reason",
    source: "hooks reference: PreToolUse decision control",
    settings: on(
      "PreToolUse",
      [
        command(
          `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "Confirm writing a config file"}}'`,
        ),
      ],
      "Write",
    ),
    model: [call("write_file", { path: "config.json", content: "{}" }), say("Asked.")],
    check: ({ approvals, exists }) => {
      expect(approvals.map((a) => [a.toolCall.toolName, a.reason])).toEqual([
        ["write_file", "Confirm writing a config file"],
      ]);
      expect(exists("config.json")).toBe(false);
    },
  },
  {
    name: "PreToolUse updatedInput (with allow) changes the command that runs",
    source: "hooks reference: PreToolUse decision control (updatedInput)",
    settings: on(
      "PreToolUse",
      [
        command(
          `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo rewritten > rewritten.txt"}}}'`,
        ),
      ],
      "Bash",
    ),
    model: [call("bash", { command: "echo original > original.txt" }), say("Ran.")],
    check: ({ exists }) => {
      expect(exists("rewritten.txt")).toBe(true);
      expect(exists("original.txt")).toBe(false);
    },
  },
  {
    name: "PreToolUse exit 2 blocks a grep command and shows stderr to the model (checks tool_name == Bash)",
    source: "hooks reference: Exit code example: Bash command validation",
    settings: on("PreToolUse", [command('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/bash-validator.py')], "Bash"),
    files: { ".claude/hooks/bash-validator.py": BASH_VALIDATOR },
    preset: "full",
    model: [
      call("bash", { command: "grep -r secret . > grep.txt" }),
      call("bash", { command: "touch listed.txt" }),
      say("Done."),
    ],
    check: ({ exists, requests }) => {
      expect(exists("grep.txt")).toBe(false);
      expect(results(requests[1])).toContain(
        "Use 'rg' (ripgrep) instead of 'grep' for better performance and features",
      );
      expect(exists("listed.txt")).toBe(true);
    },
  },
  {
    name: "PreToolUse exit 1 is a non-blocking error: the call runs, stderr is shown to the person",
    source: "hooks reference: Exit code output (other exit codes)",
    settings: on("PreToolUse", [command("echo 'this hook is broken' >&2; exit 1")], "Bash"),
    preset: "full",
    model: [call("bash", { command: "touch ran.txt" }), say("Ran.")],
    check: ({ exists, logs }) => {
      expect(exists("ran.txt")).toBe(true);
      expect(logs).toContain("this hook is broken");
    },
  },
  {
    name: 'PreToolUse deprecated decision "block" (top level) still blocks, with its reason',
    source: "hooks reference: PreToolUse decision control (deprecated decision/reason)",
    settings: on(
      "PreToolUse",
      [command(`echo '{"decision": "block", "reason": "Commands are frozen during the release"}'`)],
      "Bash",
    ),
    preset: "full",
    model: [call("bash", { command: "touch frozen.txt" }), say("Frozen.")],
    check: ({ exists, requests }) => {
      expect(exists("frozen.txt")).toBe(false);
      expect(results(requests[1])).toContain("Commands are frozen during the release");
    },
  },
  {
    name: "PostToolUse gets tool_response as an object (filePath, success) and tool_input.file_path",
    source: "hooks reference: PostToolUse input",
    settings: on(
      "PostToolUse",
      [
        command(
          `jq -c '{tool: .tool_name, file: .tool_response.filePath, ok: .tool_response.success, input: .tool_input.file_path}' >> "$CLAUDE_PROJECT_DIR"/written.jsonl`,
        ),
      ],
      "Write|Edit",
    ),
    model: [call("write_file", { path: "src/x.txt", content: "x" }), say("Written.")],
    check: ({ root, read }) => {
      expect(JSON.parse(read("written.jsonl"))).toEqual({
        tool: "Write",
        file: `${root}/src/x.txt`,
        ok: true,
        input: `${root}/src/x.txt`,
      });
    },
  },
  {
    name: 'PostToolUse decision "block" sends its reason and additionalContext to the model (the write stays)',
    source: "hooks reference: PostToolUse decision control",
    settings: on(
      "PostToolUse",
      [
        command(
          `echo '{"decision": "block", "reason": "The file has lint errors: fix them", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Run npm run lint to see them"}}'`,
        ),
      ],
      "Edit|Write",
    ),
    model: [call("write_file", { path: "bad.js", content: "var x" }), say("Fixing.")],
    check: ({ exists, requests, text }) => {
      expect(exists("bad.js")).toBe(true);
      expect(text(requests[1])).toContain("The file has lint errors: fix them");
      expect(text(requests[1])).toContain("Run npm run lint to see them");
    },
  },
  {
    name: "UserPromptSubmit plain stdout is added as context",
    source: "hooks reference: UserPromptSubmit (plain text stdout)",
    settings: on("UserPromptSubmit", [command('echo "Current time: $(date)"')]),
    model: [say("Noted.")],
    check: ({ requests, text }) => {
      expect(text(requests[0])).toMatch(/Current time: \w+/);
    },
  },
  {
    name: 'UserPromptSubmit decision "block" stops a prompt with a secret before the model sees it; a clean one gets the time',
    source: "hooks reference: UserPromptSubmit decision control (example script)",
    settings: on("UserPromptSubmit", [command('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/validate-prompt.py')]),
    files: { ".claude/hooks/validate-prompt.py": PROMPT_VALIDATOR },
    model: [say("Hello.")],
    run: async (session) => {
      const blocked = await session.send("my password: hunter2, please store it");
      expect(blocked).toMatchObject({ status: "aborted", reason: "hook_stop" });
      expect(blocked.reasonDetail).toContain("Security policy violation: Prompt contains potential secrets.");
      return session.send("hello");
    },
    check: ({ requests, text }) => {
      expect(requests).toHaveLength(1);
      expect(text(requests[0])).not.toContain("hunter2");
      expect(text(requests[0])).toContain("Current time: ");
    },
  },
  {
    name: "UserPromptSubmit hookSpecificOutput.additionalContext is added as context",
    source: "hooks reference: UserPromptSubmit decision control (additionalContext)",
    settings: on("UserPromptSubmit", [
      command(
        `echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "My additional context here"}}'`,
      ),
    ]),
    model: [say("Noted.")],
    check: ({ requests, text }) => {
      expect(text(requests[0])).toContain("My additional context here");
    },
  },
  {
    name: 'Stop decision "block" makes the model go on with the reason; the next Stop has stop_hook_active and lets it stop',
    source: "hooks reference: Stop decision control; hooks guide: Stop hook runs forever",
    settings: on("Stop", [command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh')]),
    files: { ".claude/hooks/stop.sh": STOP_UNTIL_TESTS },
    model: [say("All done."), say("Tests pass. All done.")],
    check: ({ requests, result }) => {
      expect(requests).toHaveLength(2);
      expect(getMessageText(requests[1]!.messages.at(-1)!)).toContain("Run the tests before you finish.");
      expect(result.outputText).toBe("Tests pass. All done.");
    },
  },
  {
    name: "SessionStart hookSpecificOutput.additionalContext reaches the first request",
    source: "hooks reference: SessionStart decision control",
    settings: on(
      "SessionStart",
      [
        command(
          `echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "My additional context here"}}'`,
        ),
      ],
      "startup",
    ),
    model: [say("Hi."), say("Again.")],
    run: twoTurns("first", "second"),
    check: ({ requests, text }) => {
      expect(text(requests[0])).toContain("My additional context here");
      // Once per session: the second turn's request has it only from the stored first turn.
      expect(
        requests[1]!.messages.filter((m) => getMessageText(m).includes("My additional context here")),
      ).toHaveLength(1);
    },
  },
  {
    name: "PreCompact matcher manual fires for a manual compaction, with trigger and custom_instructions",
    source: "hooks reference: PreCompact input",
    settings: on(
      "PreCompact",
      [command(`jq -c '{hook_event_name, trigger, custom_instructions}' > "$CLAUDE_PROJECT_DIR"/precompact.json`)],
      "manual",
    ),
    model: [say("Hi."), say("Summary."), say("Going on.")],
    run: withCompaction,
    check: ({ read }) => {
      expect(JSON.parse(read("precompact.json"))).toEqual({
        hook_event_name: "PreCompact",
        trigger: "manual",
        custom_instructions: "",
      });
    },
  },
  {
    name: 'SubagentStop decision "block" keeps the subagent working; the next SubagentStop has stop_hook_active',
    source: "hooks reference: SubagentStop (same decision control as Stop)",
    settings: on("SubagentStop", [command('"$CLAUDE_PROJECT_DIR"/.claude/hooks/subagent-stop.sh')]),
    files: { ".claude/hooks/subagent-stop.sh": SUBAGENT_STOP },
    preset: "full",
    model: [
      call("spawn_agent", { description: "check", prompt: "Check the cart module." }),
      say("Checked."),
      say("Checked, edge cases too."),
      say("The sub-agent checked it."),
    ],
    check: ({ read, requests, text }) => {
      expect(text(requests[2])).toContain("Also check the edge cases before you report.");
      expect(results(requests[3])).toContain("Checked, edge cases too.");
      const stops = read("subagent-stops.jsonl")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(stops.map((s) => [s.hook_event_name, s.stop_hook_active])).toEqual([
        ["SubagentStop", false],
        ["SubagentStop", true],
      ]);
    },
  },
];

function readText(file: string): string {
  return readFileSync(file, "utf8");
}
