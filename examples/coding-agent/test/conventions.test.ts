import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { textReply, toolCallReply } from "./support/chat-replies.js";

// The files other coding agents read, in a temporary repository, as a person coming from Claude Code or Codex has
// them: heddle-code runs in print mode against a loopback OpenAI-compatible server, which records every request.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const pkg = JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"));

let base: string;
let repo: string;
let app: string;
let server: MockProviderServer | undefined;

const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const skill = (dir: string, name: string, description: string, body: string) =>
  write(join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
const env = () => ({
  PATH: process.env.PATH ?? "",
  HOME: join(base, "home"),
  XDG_CONFIG_HOME: join(base, "config"),
  XDG_DATA_HOME: join(base, "data"),
  NO_COLOR: "1",
});

function runCli(args: string[], cwd = app): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "--cwd", cwd, ...args], { env: env() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
async function withModel(...replies: ReturnType<typeof textReply>[]): Promise<string[]> {
  server = await startMockProviderServer();
  server.enqueue("openai-chat", ...replies);
  return ["--base-url", server.baseUrl("openai-chat"), "--model", "conventions-model"];
}
const systemOf = (request: { body: any }): string =>
  request.body.messages.find((m: { role: string }) => m.role === "system")?.content ?? "";
const allText = (request: { body: any }): string => JSON.stringify(request.body.messages);

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-conventions-"));
  repo = join(base, "repo");
  app = join(repo, "app");
  mkdirSync(join(repo, ".git"), { recursive: true });
  write(join(base, "config", "heddle", "AGENTS.md"), "USER-MARK: answer in British English.");
  write(join(repo, "AGENTS.md"), "ROOT-MARK: this is a monorepo.");
  write(join(app, "AGENTS.md"), "APP-MARK: run npm test in app/.");
  write(join(app, "CLAUDE.md"), "CLAUDE-MARK: never push.");
  write(join(app, "lib", "AGENTS.md"), "NESTED-MARK: lib/ has no side effects.");
  write(join(app, "lib", "util.js"), "export const x = 1;\n");
  skill(join(app, ".heddle", "skills"), "deploy", "Deploy the app to staging", "DEPLOY-BODY: run ./deploy.sh staging.");
  skill(join(app, ".agents", "skills"), "lint-rules", "The lint rules of this repo", "LINT-BODY");
  skill(join(app, ".claude", "skills"), "release-notes", "Write release notes from git log", "RELEASE-BODY");
  skill(join(base, "config", "heddle", "skills"), "my-style", "The user's own code style", "STYLE-BODY");
  write(join(app, ".agents", "skills", "broken", "SKILL.md"), "---\nname: broken\n---\nno description here\n");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(base, { recursive: true, force: true });
});

describe("what heddle-code reads of other agents' conventions", () => {
  it("a -p run sends the instructions and the skill list, load_skill loads a body, and a nested AGENTS.md arrives when the agent works below it", async () => {
    const args = await withModel(
      toolCallReply("load_skill", { name: "deploy" }),
      toolCallReply("read_file", { path: "lib/util.js" }),
      textReply("Done."),
    );
    const { status, stderr } = await runCli(["-p", "deploy the app", ...args]);
    expect(status).toBe(0);
    const [first, second, third] = server!.requests;
    const system = systemOf(first!);
    // Most general first: the user's own file, the repository root's, the workspace's AGENTS.md, then its CLAUDE.md.
    const order = ["USER-MARK", "ROOT-MARK", "APP-MARK", "CLAUDE-MARK"].map((mark) => system.indexOf(mark));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).not.toContain("NESTED-MARK");
    for (const line of [
      "- deploy: Deploy the app to staging",
      "- lint-rules: The lint rules of this repo",
      "- release-notes: Write release notes from git log",
      "- my-style: The user's own code style",
    ])
      expect(system).toContain(line);
    expect(system).not.toContain("DEPLOY-BODY");
    expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("load_skill");
    // The skill's body comes back as the tool's result; the malformed skill is reported, not fatal.
    const toolResult = second!.body.messages.filter((m: { role: string }) => m.role === "tool").at(-1).content;
    expect(toolResult).toContain("DEPLOY-BODY: run ./deploy.sh staging.");
    expect(stderr).toContain(".agents/skills/broken/SKILL.md: the front matter has no description");
    expect(allText(second!)).not.toContain("NESTED-MARK");
    // Reading lib/util.js put lib/AGENTS.md in front of the model, once.
    expect(allText(third!)).toContain("NESTED-MARK: lib/ has no side effects.");
    expect(allText(third!).split("NESTED-MARK").length - 1).toBe(1);
  });

  it("--show-system-prompt says what was read; --no-claude, --no-skills and --no-instructions turn each off", async () => {
    const shown = await runCli(["--show-system-prompt"]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(
      /instructions \(most general first\): .*config\/heddle\/AGENTS\.md, \.\.\/AGENTS\.md, AGENTS\.md, CLAUDE\.md/,
    );
    expect(shown.stdout).toContain("skills: deploy, lint-rules, release-notes, my-style");
    expect(shown.stdout).toContain("--- system prompt ---");

    const noClaude = (await runCli(["--show-system-prompt", "--no-claude"])).stdout;
    expect(noClaude).not.toContain("CLAUDE-MARK");
    expect(noClaude).not.toContain("release-notes");
    expect(noClaude).toContain("APP-MARK");
    const noSkills = (await runCli(["--show-system-prompt", "--no-skills"])).stdout;
    expect(noSkills).toContain("skills: none found");
    expect(noSkills).toContain("APP-MARK");
    const noInstructions = (await runCli(["--show-system-prompt", "--no-instructions"])).stdout;
    expect(noInstructions).not.toMatch(/USER-MARK|ROOT-MARK|APP-MARK|CLAUDE-MARK/);
    expect(noInstructions).toContain("- deploy: Deploy the app to staging");
  });

  it("a hostile repository: files linked out of it, a FIFO and an oversized file are refused or cut, and the run goes on", async () => {
    write(join(base, "secret.txt"), "SECRET-KEY-MATERIAL");
    rmSync(join(app, "CLAUDE.md"));
    symlinkSync(join(base, "secret.txt"), join(app, "CLAUDE.md"));
    mkdirSync(join(app, ".heddle", "skills", "leak"), { recursive: true });
    symlinkSync(join(base, "secret.txt"), join(app, ".heddle", "skills", "leak", "SKILL.md"));
    rmSync(join(repo, "AGENTS.md"));
    execFileSync("mkfifo", [join(repo, "AGENTS.md")]);
    write(join(app, "AGENTS.md"), `APP-MARK ${"x".repeat(40 * 1024)} TAIL-MARK`);
    const args = await withModel(textReply("Fine."));
    const { status, stderr } = await runCli(["-p", "hello", ...args]);
    expect(status).toBe(0);
    const sent = allText(server!.requests[0]!);
    expect(sent).not.toContain("SECRET-KEY-MATERIAL");
    expect(sent).toContain("APP-MARK");
    expect(sent).not.toContain("TAIL-MARK");
    expect(stderr).toContain(`CLAUDE.md not read: it is a link to ${join(base, "secret.txt")}, outside ${repo}`);
    expect(stderr).toMatch(/\.heddle\/skills\/leak\/SKILL\.md: a link to .*secret\.txt, outside the workspace/);
    expect(stderr).toContain("../AGENTS.md not read: it is a FIFO (named pipe), not a regular file");
    const size = Buffer.byteLength(readFileSync(join(app, "AGENTS.md")));
    expect(stderr).toContain(`heddle-code: AGENTS.md is ${size} bytes: only its first 32 KiB are read`);
  });
});

describe("where sessions are kept", () => {
  it("outside the repository by default (the user's data folder, keyed by workspace); in .heddle with --sessions-in-project", async () => {
    const args = await withModel(textReply("One."), textReply("Two."));
    expect((await runCli(["-p", "hi", ...args])).status).toBe(0);
    expect(existsSync(join(app, ".heddle", "sessions.db"))).toBe(false);
    const kept = readdirSync(join(base, "data", "heddle", "sessions"));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^app-[0-9a-f]{16}$/);
    expect(existsSync(join(base, "data", "heddle", "sessions", kept[0]!, "sessions.db"))).toBe(true);

    // Private to the user.
    expect(statSync(join(base, "data", "heddle", "sessions", kept[0]!)).mode & 0o077).toBe(0);

    expect((await runCli(["-p", "hi", "--sessions-in-project", ...args])).status).toBe(0);
    expect(existsSync(join(app, ".heddle", "sessions.db"))).toBe(true);
    // Back to the default, a line says where the project's older sessions are.
    server!.enqueue("openai-chat", textReply("Three."));
    const again = await runCli(["-p", "hi", ...args]);
    expect(again.stdout).toContain(
      "this project has older sessions in .heddle/sessions.db; run with --sessions-in-project to list or resume them",
    );
  });
});

describe("--version", () => {
  it("prints the package's version and exits 0", async () => {
    const { status, stdout } = await runCli(["--version"]);
    expect(stdout).toBe(`heddle-code ${pkg.version}\n`);
    expect(status).toBe(0);
  });
});
