import { spawnSync } from "node:child_process";
import type { TerminalRenderer } from "./render.js";

/** Runs the sample project's tests outside the agent, so the demo's claim is checked, not taken on trust. */
export async function verifyDemo(workspaceRoot: string, renderer: TerminalRenderer): Promise<boolean> {
  const run = spawnSync(process.execPath, ["--test", "test/"], { cwd: workspaceRoot, encoding: "utf8" });
  const passed = run.status === 0;
  renderer.line(
    passed
      ? renderer.green("Checked independently: `node --test test/` passes in the demo workspace.")
      : renderer.red(`Checked independently: the tests still fail (exit ${run.status}).`),
  );
  return passed;
}
