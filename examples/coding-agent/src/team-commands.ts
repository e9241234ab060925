import type { ReplState } from "./interactive.js";
import { sanitizeForTerminal as safe } from "./terminal-text.js";

const USAGE = "usage: /team | /team spawn <name>[:<role>] <task> | /team send <name> <text> | /team stop [name]";
const NAME = /^[\w-]{1,64}$/;

/** `/team` and its subcommands: start, message and stop teammates, and see them with the sub-agents. */
export async function runTeamCommand(args: string[], line: string, state: ReplState): Promise<void> {
  const { renderer, teammates } = state;
  const [sub, target] = args;
  // The text after the subcommand and the name, as typed (spaces kept).
  const rest = () => line.replace(/^\/team\s+\S+\s+\S+\s*/, "").trim();
  switch (sub) {
    case undefined: {
      renderer.line("teammates:");
      for (const row of await teammates.lines()) renderer.line(safe(row));
      renderer.line("sub-agents (this process):");
      for (const row of state.team.lines()) renderer.line(safe(row));
      return;
    }
    case "spawn": {
      const [name = "", role = name] = (target ?? "").split(":");
      const task = rest();
      if (!NAME.test(name) || task === "") return renderer.line(USAGE);
      teammates.spawn(name, role || name, task);
      renderer.line(`started teammate ${name} (role ${safe(role || name)}); /team shows how it is doing`);
      return;
    }
    case "send": {
      const text = rest();
      if (!target || text === "") return renderer.line(USAGE);
      await teammates.send(target, text);
      renderer.line(`sent to ${safe(target)}`);
      return;
    }
    case "stop": {
      const stopped = await teammates.stop(target);
      renderer.line(stopped ? `stopped ${target ? safe(target) : "every teammate"}` : "no such teammate running");
      return;
    }
    default:
      renderer.line(USAGE);
  }
}
