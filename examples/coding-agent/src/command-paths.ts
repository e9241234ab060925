import path from "node:path";

/**
 * Which workspace paths a folder's hook commands and MCP servers run: the files folder trust must hash along with
 * the config files, or a script changed after the user said yes (by a pull, or by the agent) would run unasked.
 *
 * A heuristic over the command text, erring towards naming more: every word that is a path (has a `/`), with
 * `$HEDDLE_PROJECT_DIR` / `$CLAUDE_PROJECT_DIR` (and `${...}`) expanded to the folder, resolved against the
 * command's folder. A bare word counts when it is a script's name (`node hook.js`, `sh check.sh`) or starts with `.`
 * (`.env`), and such a file exists; other bare words (`npm test`, `touch done.txt`, a jq filter `.tool_input.command`)
 * are not taken for code. Words with quotes, backslashes or parentheses are program text (a jq or python program), not
 * paths. Output redirections
 * (`> log`) are not code and are skipped. What a script itself sources or imports is not followed: keep hook scripts self-contained,
 * or in `.heddle/`, which file tools never change.
 */

/** A path a command names, inside the folder; `exact: false` when it still holds a variable or a glob. */
export interface NamedPath {
  path: string;
  exact: boolean;
  /** A bare script name (no `/`): counts only when such a file exists. */
  bare: boolean;
}

const PROJECT_VARS = /\$\{?(?:HEDDLE_PROJECT_DIR|CLAUDE_PROJECT_DIR)\}?/g;
/** Bare words that name a script an interpreter would run. */
const SCRIPT_NAME = /\.(?:sh|bash|zsh|fish|[cm]?js|[cm]?ts|jsx|tsx|py|rb|pl|php|lua|ps1|jar)$/i;
const OUTPUT_REDIRECT = /^(?:\d*>>?|&>>?|>\|)$/;

/** Paths inside `folder` that a shell command run in `cwd` names. */
export function pathsInShellCommand(command: string, folder: string, cwd: string = folder): NamedPath[] {
  const found: NamedPath[] = [];
  let skipNext = false;
  for (const word of shellWords(command)) {
    if (word.operator) {
      skipNext = OUTPUT_REDIRECT.test(word.text);
      continue;
    }
    if (skipNext) {
      skipNext = false;
      continue;
    }
    found.push(...pathsInWord(word.text, folder, cwd));
  }
  return found;
}

/** Paths inside `folder` that one argv element names (no shell splitting: MCP `command` and `args`). */
export function pathsInArgument(argument: string, folder: string, cwd: string = folder): NamedPath[] {
  return pathsInWord(argument, folder, cwd);
}

function pathsInWord(raw: string, folder: string, cwd: string): NamedPath[] {
  const candidates = [raw];
  // `--config=./x.js`, `NODE_OPTIONS=--require=./x.js`: the part after `=` may be the path.
  const eq = raw.indexOf("=");
  if (eq > 0 && eq < raw.length - 1) candidates.push(raw.slice(eq + 1));
  const found: NamedPath[] = [];
  for (const candidate of candidates) {
    const text = candidate.replace(PROJECT_VARS, folder);
    if (text === "" || text.startsWith("-") || text.startsWith("~")) continue;
    // Program text, not a file: a jq filter's `"\(.tool_input.command)"`, a `python -c` one-liner.
    if (/["\\()]/.test(text)) continue;
    const bare = !text.includes("/");
    const exact = !/[$*?[\]{}`]/.test(text);
    // A dot-word (`.env`, or a jq path like `.tool_input.file_path`) counts when such a file exists, like a script name.
    if (bare && (text.startsWith(".") ? !exact : !SCRIPT_NAME.test(text))) continue;
    // An unexpanded variable at the start could be anything: only a path that visibly starts inside counts.
    if (!exact && text.startsWith("$")) continue;
    const resolved = path.resolve(cwd, text);
    if (resolved === folder || !inside(resolved, folder)) continue;
    found.push({ path: resolved, exact, bare });
  }
  return found;
}

interface Word {
  text: string;
  operator: boolean;
}

/**
 * Splits shell text into words and operators (`;`, `|`, `&&`, `>`, `2>>`, `(`...), removing quotes and
 * backslashes as the shell would; `$(`, backticks and parentheses separate words too.
 */
export function shellWords(command: string): Word[] {
  const words: Word[] = [];
  let current = "";
  let inWord = false;
  const flush = () => {
    if (inWord) words.push({ text: current, operator: false });
    current = "";
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      current += command.slice(i + 1, end === -1 ? command.length : end);
      inWord = true;
      i = end === -1 ? command.length : end;
    } else if (c === '"') {
      i++;
      for (; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) i++;
        current += command[i];
      }
      inWord = true;
    } else if (c === "\\") {
      current += command[i + 1] ?? "";
      inWord = true;
      i++;
    } else if (/\s/.test(c)) {
      flush();
    } else if (c === "$" && command[i + 1] === "(") {
      flush();
      i++;
    } else if (";|&<>()`".includes(c)) {
      // A redirection may carry its file descriptor: `2>`, `&>>`.
      const fd = /^\d+$/.test(current) && (c === ">" || c === "<") ? current : "";
      if (fd) {
        current = "";
        inWord = false;
      }
      flush();
      let op = fd + c;
      while (i + 1 < command.length && "|&<>".includes(command[i + 1]!) && op.length < 3) op += command[++i];
      words.push({ text: op, operator: true });
    } else {
      current += c;
      inWord = true;
    }
  }
  flush();
  return words;
}

function inside(candidate: string, base: string): boolean {
  const rel = path.relative(base, candidate);
  return rel === "" || (!rel.startsWith(`..${path.sep}`) && rel !== ".." && !path.isAbsolute(rel));
}
