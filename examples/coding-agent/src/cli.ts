// The entry point. It answers `--help` and `--version` (and a bad command line) from the few small modules imported
// here, and loads the agent itself (main.ts: Heddle's packages, the session store, MCP, ...) only for a session, the
// demo or `--show-system-prompt`. Keep these imports light: test/cli-start.test.ts checks what `--help` loads.
import { readFileSync } from "node:fs";
import nodeModule from "node:module";
import { HELP, parseCliArgs, UsageError } from "./args.js";
import { exitWhenWritten } from "./exit.js";
import { sanitizeForTerminal as safe } from "./terminal-text.js";

async function run(argv: string[]): Promise<number> {
  const options = parseCliArgs(argv);
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (options.version) {
    process.stdout.write(`heddle-code ${packageVersion()}\n`);
    return 0;
  }
  // Node >= 22.1 keeps V8's compiled code of the bundle on disk (in the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1
  // turns it off), so later starts skip most of the compiling. Node 20 has no such cache for ES modules.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const { main } = await import("./main.js");
  return main(options);
}

/** The version of the package this CLI ships in. */
function packageVersion(): string {
  const file = new URL("../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

// `heddle-code --json | head` closes the pipe early: that is the reader being done, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

run(process.argv.slice(2)).then(
  (code) => exitWhenWritten(code),
  (error: unknown) => {
    const named = error as { name?: string; message?: string };
    // A NoModelError (provider.ts, loaded with main.ts) is known by its name, so this file need not import it.
    if (error instanceof UsageError || named?.name === "NoModelError") {
      process.stderr.write(
        `heddle-code: ${safe(named.message ?? "")}\n${error instanceof UsageError ? "Run heddle-code --help.\n" : ""}`,
      );
      return exitWhenWritten(2);
    }
    process.stderr.write(`heddle-code: ${safe(`${named?.name ?? "Error"}: ${named?.message ?? String(error)}`)}\n`);
    return exitWhenWritten(1);
  },
);
