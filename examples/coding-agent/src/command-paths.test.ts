import { describe, expect, it } from "vitest";
import { pathsInShellCommand, shellWords } from "./command-paths.js";

const folder = "/work/repo";
const named = (command: string) => pathsInShellCommand(command, folder).map((p) => (p.exact ? p.path : `~${p.path}`));

describe("the workspace paths a hook command names", () => {
  it("expands $HEDDLE_PROJECT_DIR and $CLAUDE_PROJECT_DIR (with or without braces, quoted or not)", () => {
    expect(named('"$HEDDLE_PROJECT_DIR"/hooks/a.sh')).toEqual(["/work/repo/hooks/a.sh"]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${VAR}, not a template
    expect(named("sh ${CLAUDE_PROJECT_DIR}/.claude/hooks/b.sh")).toEqual(["/work/repo/.claude/hooks/b.sh"]);
    expect(named("cd \"$HEDDLE_PROJECT_DIR\" && node 'scripts/c.mjs' --config=./lint.json")).toEqual([
      "/work/repo/scripts/c.mjs",
      "/work/repo/lint.json",
    ]);
  });

  it("takes paths and script names, not plain words, outputs of redirections or paths outside", () => {
    expect(named("node check.js; npm test; touch done.txt")).toEqual(["/work/repo/check.js"]);
    expect(named('env > "$HEDDLE_PROJECT_DIR/out.txt" 2>>err.log; cat < ./input.sh')).toEqual(["/work/repo/input.sh"]);
    expect(named("bash ~/x.sh /etc/hook.sh ../other/y.sh $HOME/z.sh")).toEqual([]);
  });

  it("takes no program text for a path; a dot-word is a file only if one exists (Claude Code's jq and python examples)", () => {
    const found = (command: string) => pathsInShellCommand(command, folder).map((p) => [p.path, p.bare]);
    expect(
      found(`jq -r '"\\(.tool_input.command) - \\(.tool_input.description // "No description")"' >> ~/log.txt`),
    ).toEqual([]);
    expect(found(`python3 -c "import json, sys; sys.exit(2 if '.env' in sys.stdin.read() else 0)"`)).toEqual([]);
    expect(found("jq -r '.tool_input.file_path' | xargs npx prettier --write")).toEqual([
      ["/work/repo/.tool_input.file_path", true],
    ]);
    expect(found("source .env && sh ./.claude/hooks/x.sh")).toEqual([
      ["/work/repo/.env", true],
      ["/work/repo/.claude/hooks/x.sh", false],
    ]);
  });

  it("marks a path that still holds a variable or a glob as not exact", () => {
    expect(named('sh "$HEDDLE_PROJECT_DIR/hooks/$NAME.sh" hooks/*.sh')).toEqual([
      "~/work/repo/hooks/$NAME.sh",
      "~/work/repo/hooks/*.sh",
    ]);
  });

  it("splits words the way the shell does", () => {
    expect(shellWords(`a "b c"'d' e\\ f|g&&h 2>i $(j)`).map((w) => w.text)).toEqual([
      "a",
      "b cd",
      "e f",
      "|",
      "g",
      "&&",
      "h",
      "2>",
      "i",
      "j",
      ")",
    ]);
  });
});
