// A launcher like `npx`: starts the real server (argv after this script) as its child and passes stdio through.
// Two test hooks: MCP_RECORD=<file> appends every byte the server is sent to that file (to see what reached it),
// and on stdin's end this launcher exits without ending its child, so the child outlives it (a sloppy wrapper).
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
if (process.env.MCP_CHILD_PID_FILE) writeFileSync(process.env.MCP_CHILD_PID_FILE, String(child.pid));
process.stdin.on("data", (chunk) => {
  if (process.env.MCP_RECORD) appendFileSync(process.env.MCP_RECORD, chunk);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => process.exit(0));
child.on("exit", (code) => process.exit(code ?? 1));
