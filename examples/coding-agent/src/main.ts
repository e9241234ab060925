import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliOptions } from "./args.js";
import { createDemoModel, DEMO_TASK } from "./demo-model.js";
import { promptParts, startSession } from "./host.js";
import { runInteractive } from "./interactive.js";
import { connectHostMcp, type McpPersonLink, mcpConfigSources } from "./mcp.js";
import { startTelemetry } from "./otel.js";
import { runTask } from "./print-mode.js";
import { resolveModel } from "./provider.js";
import { TerminalRenderer } from "./render.js";
import { legacySessionsNotice, openStore, sessionStorage } from "./session-store.js";
import { describePrompt } from "./system-prompt.js";
import { sanitizeForTerminal as safe } from "./terminal-text.js";
import { resolveFolderTrust } from "./trust.js";
import { verifyDemo } from "./verify-demo.js";

/**
 * Everything but `--help` and `--version`: loaded by cli.ts only when a session (or the demo, or
 * `--show-system-prompt`) is asked for, so those two answer without this module's imports.
 */
export async function main(options: CliOptions): Promise<number> {
  const color = !process.env.NO_COLOR && Boolean(process.stdout.isTTY);
  const renderer = new TerminalRenderer({
    write: (s) => process.stdout.write(s),
    color,
    tty: Boolean(process.stdout.isTTY),
  });

  let workspaceRoot = resolve(options.cwd);
  const sampleProject = fileURLToPath(new URL("../sample-project", import.meta.url));
  // The demo's own temp copy goes when the process does (also on EPIPE or an error); a --cwd folder is the
  // person's and stays, so its sessions can be resumed.
  let removeOnExit: string | undefined;
  if (options.demo && options.cwdGiven && (!existsSync(workspaceRoot) || readdirSync(workspaceRoot).length === 0)) {
    cpSync(sampleProject, workspaceRoot, { recursive: true });
    if (!options.json)
      renderer.line(renderer.dim(`Copied the sample project to ${workspaceRoot} (kept after the demo).`));
  }
  if (options.demo && !options.cwdGiven) {
    workspaceRoot = mkdtempSync(join(tmpdir(), "heddle-demo-"));
    removeOnExit = workspaceRoot;
    process.once("exit", () => rmSync(workspaceRoot, { recursive: true, force: true }));
    cpSync(sampleProject, workspaceRoot, { recursive: true });
    if (!options.json) {
      renderer.line(renderer.yellow("DEMO — a scripted demo model, not a real one, plays the model's part."));
      renderer.line(
        renderer.dim("Everything else is real: the agent loop, the tools (a real shell, real file edits) and the"),
      );
      renderer.line(
        renderer.dim(`SQLite session store. Workspace: a fresh copy of the sample project in ${workspaceRoot}`),
      );
      renderer.line();
    }
  }
  if (options.showSystemPrompt) {
    // What a session here would be told, without a model: the person can check which files were read.
    for (const line of describePrompt(promptParts({ workspaceRoot, conventions: options.conventions })))
      process.stdout.write(`${safe(line)}\n`);
    return 0;
  }
  // A --cwd that does not exist yet is made (sessions used to make it, as they were kept inside it).
  mkdirSync(workspaceRoot, { recursive: true });
  const model = options.demo ? createDemoModel() : resolveModel(options);
  const mcpSources = mcpConfigSources({ ...options, claude: options.conventions.claude }, workspaceRoot);
  // In --json mode stdout carries events only: MCP notices go to stderr.
  const notice = (message: string) =>
    options.json ? process.stderr.write(`heddle-code: ${safe(message)}\n`) : renderer.notice(message);
  if (mcpSources.untrustedWorkspaceConfig)
    notice(`${mcpSources.untrustedWorkspaceConfig} not loaded: the folder is not trusted (run with --trust)`);
  if (mcpSources.refusedWorkspaceConfig) notice(mcpSources.refusedWorkspaceConfig);
  const interactive = !(options.print !== undefined || (options.demo && !options.interactive));
  // Servers may ask the person (a form, leave to sample, a sign-in): the prompt is linked once it exists.
  const person: McpPersonLink = {};
  const mcp = await connectHostMcp(mcpSources, (change) => notice(change.message), {
    workspaceRoot,
    model,
    interactive,
    yes: options.yes,
    ...(options.maxBudgetUsd !== undefined && { maxBudgetUsd: options.maxBudgetUsd }),
    person,
    say: notice,
  });
  const otel = options.otel ? await startTelemetry() : undefined;
  // The demo's own temp copy keeps its sessions inside it, so they go with it.
  const storage = sessionStorage(workspaceRoot, options.sessionsInProject || removeOnExit !== undefined);
  const legacy = options.resume ? undefined : legacySessionsNotice(workspaceRoot, storage);
  if (legacy && !options.demo) notice(legacy);
  const store = openStore(storage);
  try {
    if (options.print !== undefined || (options.demo && !options.interactive)) {
      const task = options.print ?? DEMO_TASK;
      const session = await startSession(
        {
          workspaceRoot,
          model,
          preset: options.preset,
          conventions: options.conventions,
          storage,
          yes: options.yes,
          notice: (line) => process.stderr.write(`heddle-code: ${safe(line)}\n`),
          ...(options.maxBudgetUsd !== undefined && { maxBudgetUsd: options.maxBudgetUsd }),
          ...(mcp && { mcp }),
          ...(otel && { telemetry: otel.telemetry }),
          // Print mode has no one to ask: only --yes (or the preset's auto-approval) lets a call run, and only
          // --trust (or an earlier yes) lets the folder's hooks run.
          ...(options.yes && { approve: async () => ({ approved: true }) }),
          trustProject: () =>
            resolveFolderTrust({
              folder: workspaceRoot,
              trustFlag: options.trust,
              claude: options.conventions.claude,
              notice: (line) => process.stderr.write(`${safe(line)}\n`),
            }),
        },
        store,
        options.resume,
      );
      if (!options.json) renderer.line(renderer.cyan(`> ${task}`));
      const result = await runTask(session, task, { json: options.json, renderer });
      await session.close();
      let ok = result.status === "completed";
      if (!options.json) {
        if (result.reason === "completion_tool") renderer.line(`\n${safe(result.outputText)}`);
        if (result.reason === "hook_stop" && result.iterations === 0 && result.reasonDetail)
          renderer.line(`blocked by a UserPromptSubmit hook: ${safe(result.reasonDetail)}`);
        if (options.demo) ok = (await verifyDemo(workspaceRoot, renderer)) && ok;
        renderer.line(renderer.dim(resumeHint(options, workspaceRoot, session.id, removeOnExit !== undefined)));
      }
      return ok ? 0 : 1;
    }
    return await runInteractive({
      options,
      workspaceRoot,
      model,
      store,
      storage,
      renderer,
      ...(mcp && { mcp }),
      ...(otel && { telemetry: otel.telemetry }),
      mcpSources,
      mcpPerson: person,
    });
  } finally {
    await store.close();
    await mcp?.close();
    await otel?.shutdown();
  }
}

/** How to continue this session; a demo copy removed on exit cannot be resumed, so it says how to keep one. */
function resumeHint(
  options: { demo: boolean; cwdGiven: boolean },
  workspaceRoot: string,
  sessionId: string,
  removed: boolean,
): string {
  if (removed)
    return `session ${sessionId} · this demo copy is removed on exit; to keep one you can resume: --demo --cwd <dir>`;
  if (options.demo)
    return `session ${sessionId} · resume with: heddle-code --demo -i --cwd ${workspaceRoot} --resume ${sessionId}`;
  return `session ${sessionId} · resume with --resume ${sessionId}`;
}
