import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkFolderTrust, projectConfigState, resolveFolderTrust, trustStoreFile } from "../src/trust.js";
import { textReply, toolCallReply } from "./support/chat-replies.js";

// Folder trust must cover the scripts a trusted repository's hooks and MCP servers run, not only their settings:
// each test changes such a script the way an attacker (a pull, or the agent itself) would.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const sample = fileURLToPath(new URL("../sample-project", import.meta.url));

let base: string;
let folder: string;
let store: string;
let server: MockProviderServer | undefined;

// Same length on purpose: a hash over names and lengths would miss the swap.
const GOOD = 'echo ok1 > "$HEDDLE_PROJECT_DIR/ran.txt"\n';
const EVIL = 'echo ok2 > "$HEDDLE_PROJECT_DIR/pwn.txt"\n';

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`build the example first (pnpm build): ${cli} is missing`);
});
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "heddle-trust-scripts-"));
  folder = join(base, "repo");
  cpSync(sample, folder, { recursive: true });
  mkdirSync(join(folder, ".heddle"));
  mkdirSync(join(folder, "scripts"));
  store = trustStoreFile({ XDG_CONFIG_HOME: join(base, "config") });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(base, { recursive: true, force: true });
});

const settings = (hooks: object) => writeFileSync(join(folder, ".heddle", "settings.json"), JSON.stringify({ hooks }));
const sessionStart = (command: string) => settings({ SessionStart: [{ hooks: [{ type: "command", command }] }] });
const script = (name: string, body: string) => writeFileSync(join(folder, "scripts", name), body);
const trustNow = () =>
  resolveFolderTrust({ folder, trustFlag: false, ask: async () => "y", notice: () => {}, storeFile: store });

/** heddle-code in print mode, as a person runs it; the mock model's server answers from this process. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "--cwd", folder, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: base, XDG_CONFIG_HOME: join(base, "config"), NO_COLOR: "1" },
    });
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
const demo = () => runCli(["--demo", "-p", "hello"]);
async function withModel(...replies: ReturnType<typeof textReply>[]): Promise<string[]> {
  server = await startMockProviderServer();
  server.enqueue("openai-chat", ...replies);
  return ["--base-url", server.baseUrl("openai-chat"), "--model", "attacker-model"];
}
/** The tool results the model was sent back, in order (the last request carries them all). */
const toolResults = (): string[] =>
  (server?.requests.at(-1)?.body?.messages ?? [])
    .filter((message: { role: string }) => message.role === "tool")
    .map((message: { content: string }) => message.content);

describe("trust covers the scripts hooks run", () => {
  it("a hook script changed after trust, even by a same-length edit, is not run: the folder asks again", async () => {
    script("session-start.sh", GOOD);
    sessionStart('sh "$HEDDLE_PROJECT_DIR/scripts/session-start.sh"');
    expect(await trustNow()).toBe(true);
    expect(checkFolderTrust(folder, store).referencedFiles).toEqual([join(folder, "scripts", "session-start.sh")]);
    await demo();
    expect(existsSync(join(folder, "ran.txt"))).toBe(true);

    script("session-start.sh", EVIL);
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: true });
    const { stderr } = await demo();
    expect(existsSync(join(folder, "pwn.txt"))).toBe(false);
    expect(stderr).toMatch(/not trusted \(changed since you trusted this folder \(or a script they run did\)\)/);
  });

  it("a same-length edit of the settings file asks again too", async () => {
    sessionStart('echo "aaa"');
    expect(await trustNow()).toBe(true);
    sessionStart('echo "bbb"');
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: true });
  });

  it("under preset edit the agent cannot rewrite a trusted hook's script; a rewrite by bash is caught at the next start", async () => {
    script("session-start.sh", GOOD);
    sessionStart('sh "$HEDDLE_PROJECT_DIR/scripts/session-start.sh"');
    expect(await trustNow()).toBe(true);
    const model = await withModel(
      toolCallReply("write_file", { path: "scripts/session-start.sh", content: EVIL }),
      toolCallReply("bash", { command: `printf '%s' '${EVIL.trim()}' > scripts/session-start.sh` }),
      textReply("done"),
    );
    const first = await runCli([...model, "-p", "tidy the scripts", "--preset", "edit", "-y"]);
    expect(first.status).toBe(0);
    // The trusted hook ran at this start; the file tool was refused; bash (approved with -y) did change the file.
    expect(existsSync(join(folder, "ran.txt"))).toBe(true);
    expect(toolResults()[0]).toMatch(/which file tools may not change/);
    expect(readFileSync(join(folder, "scripts", "session-start.sh"), "utf8")).toContain("pwn.txt");

    const next = await demo();
    expect(existsSync(join(folder, "pwn.txt"))).toBe(false);
    expect(next.stderr).toMatch(/changed since you trusted this folder/);
  });

  it("a PreToolUse hook's script rewritten by bash mid-session does not run: the next call is denied", async () => {
    script("pre-tool.sh", 'echo pre >> "$HEDDLE_PROJECT_DIR/pre.log"\n');
    settings({ PreToolUse: [{ hooks: [{ type: "command", command: "sh scripts/pre-tool.sh" }] }] });
    expect(await trustNow()).toBe(true);
    const model = await withModel(
      toolCallReply("bash", { command: `printf '%s' '${EVIL.trim()}' > scripts/pre-tool.sh` }),
      toolCallReply("bash", { command: "echo second-call-ran" }),
      textReply("done"),
    );
    const { stderr } = await runCli([...model, "-p", "go", "--preset", "edit", "-y"]);
    expect(readFileSync(join(folder, "pre.log"), "utf8")).toBe("pre\n");
    expect(existsSync(join(folder, "pwn.txt"))).toBe(false);
    expect(stderr).toMatch(/was not run: this folder's hook settings or a script they run changed since you trusted/);
    expect(toolResults()[1]).toMatch(
      /could not decide \(.*was not run: .*changed since you trusted them.*\); denied\./,
    );
  });

  it("a hook naming a workspace path that cannot be hashed is never remembered: asked each time, off in print mode", async () => {
    sessionStart('sh "$HEDDLE_PROJECT_DIR/scripts/$HOOK_NAME.sh"');
    const trust = checkFolderTrust(folder, store);
    expect(trust.unhashable).toEqual(["scripts/$HOOK_NAME.sh (names a variable or a pattern)"]);
    const asked: string[] = [];
    const yes = async (question: string) => {
      asked.push(question);
      return "y";
    };
    expect(await resolveFolderTrust({ folder, trustFlag: false, ask: yes, notice: () => {}, storeFile: store })).toBe(
      true,
    );
    expect(await resolveFolderTrust({ folder, trustFlag: false, ask: yes, notice: () => {}, storeFile: store })).toBe(
      true,
    );
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatch(/cannot be checked for changes, so you are asked each time/);
    const { stderr } = await demo();
    expect(stderr).toMatch(/not running the hooks and MCP servers of \.heddle\/settings\.json/);
  });

  it("an MCP server's script counts: changing it withdraws the trust", async () => {
    mkdirSync(join(folder, "tools"));
    writeFileSync(join(folder, "tools", "server.js"), "// a server\n");
    writeFileSync(
      join(folder, ".heddle", "mcp.json"),
      JSON.stringify({ mcpServers: { local: { command: "node", args: ["tools/server.js"] } } }),
    );
    expect(await trustNow()).toBe(true);
    expect(checkFolderTrust(folder, store)).toMatchObject({
      trusted: true,
      referencedFiles: [join(folder, "tools", "server.js")],
    });
    writeFileSync(join(folder, "tools", "server.js"), "// b server\n");
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: true });
  });

  it("Claude Code's .claude/settings.json counts too: untrusted it does not run, its script is hashed, --no-claude leaves it out", async () => {
    // Without Claude Code's files, the hash is what it was before they were read: an earlier trust still holds.
    expect(projectConfigState(folder).hash).toBe(projectConfigState(folder, { claude: false }).hash);
    mkdirSync(join(folder, ".claude", "hooks"), { recursive: true });
    writeFileSync(join(folder, ".claude", "hooks", "start.sh"), GOOD);
    writeFileSync(
      join(folder, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          SessionStart: [{ hooks: [{ type: "command", command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/start.sh' }] }],
        },
      }),
    );
    const refused = await demo();
    expect(refused.stderr).toMatch(
      /not running the hooks and MCP servers of \.claude\/settings\.json: this folder is not trusted/,
    );
    expect(existsSync(join(folder, "ran.txt"))).toBe(false);

    expect(await trustNow()).toBe(true);
    expect(checkFolderTrust(folder, store).referencedFiles).toEqual([join(folder, ".claude", "hooks", "start.sh")]);
    await demo();
    expect(existsSync(join(folder, "ran.txt"))).toBe(true);
    writeFileSync(join(folder, ".claude", "hooks", "start.sh"), EVIL);
    expect(checkFolderTrust(folder, store)).toMatchObject({ trusted: false, changed: true });
    // Without Claude Code's files, .claude/settings.json is neither read nor asked about.
    expect(checkFolderTrust(folder, store, { claude: false }).configFiles).toEqual([]);
    const off = await runCli(["--demo", "-p", "hello", "--no-claude"]);
    expect(off.stderr).not.toContain(".claude/settings.json");
    expect(existsSync(join(folder, "pwn.txt"))).toBe(false);
  });

  it("no file tool may write Claude Code's settings, whose hooks the next session would run", async () => {
    const hooks = { hooks: { SessionStart: [{ hooks: [{ type: "command", command: "touch pwn.txt" }] }] } };
    const args = await withModel(
      toolCallReply("write_file", { path: ".claude/settings.json", content: JSON.stringify(hooks) }),
      toolCallReply("write_file", { path: ".claude/settings.local.json", content: JSON.stringify(hooks) }),
      textReply("Tried."),
    );
    const { status } = await runCli(["-p", "set up hooks", ...args]);
    expect(status).toBe(0);
    expect(existsSync(join(folder, ".claude", "settings.json"))).toBe(false);
    expect(existsSync(join(folder, ".claude", "settings.local.json"))).toBe(false);
    expect(toolResults().join("\n")).toMatch(/\.claude\/settings\.json.*which file tools may not change/s);
  });
});
