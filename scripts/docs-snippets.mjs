// Extracts every TypeScript code block from the docs and the READMEs, type-checks them all against the packages'
// sources, and runs the ones marked runnable (an info string of "ts run"), so a doc cannot drift from the code.
// Used by scripts/docs-snippets.test.ts; also runnable by hand: `node scripts/docs-snippets.mjs`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Markdown files whose code blocks users copy: docs/, the root README and every package's and example's. */
export function docFiles(base = root) {
  const files = [];
  const add = (dir) => {
    if (!existsSync(join(base, dir))) return;
    for (const name of readdirSync(join(base, dir)).sort()) if (name.endsWith(".md")) files.push(join(dir, name));
  };
  add("docs");
  files.push("README.md");
  for (const group of ["packages", "examples"])
    for (const name of readdirSync(join(base, group)).sort())
      if (existsSync(join(base, group, name, "README.md"))) files.push(join(group, name, "README.md"));
  return files;
}

/** Every ```ts / ```typescript block: where it is (1-based line of its first code line), its code, whether it runs. */
export function extractSnippets(markdown, file) {
  const snippets = [];
  const lines = markdown.split("\n");
  let open;
  lines.forEach((line, index) => {
    const fence = /^(\s*)```(\S*)\s*(.*)$/.exec(line);
    if (!open && fence && /^(ts|typescript|tsx)$/.test(fence[2])) {
      open = { file, line: index + 2, run: /\brun\b/.test(fence[3]), code: [] };
    } else if (!open && fence && fence[2] !== "") {
      open = { skip: true };
    } else if (open && /^\s*```\s*$/.test(line)) {
      if (!open.skip) snippets.push({ ...open, code: `${open.code.join("\n")}\n`, copyOf: copyOf(lines, index + 1) });
      open = undefined;
    } else if (!open && fence) {
      open = { skip: true };
    } else if (open && !open.skip) {
      open.code.push(line);
    }
  });
  return snippets;
}

/** A block followed by "This is `path`" says it is that file: the path, else undefined. */
function copyOf(lines, after) {
  const next = lines.slice(after).find((line) => line.trim() !== "");
  return next && /^This is `([^`]+)`/.exec(next)?.[1];
}

/**
 * Every block of any language that says it is a repository file ("This is `path`" right after it): a plugin's
 * `.mjs`, a config's JSON, a TypeScript file. Each is compared with the file byte for byte (`staleCopies`).
 */
export function extractCopies(markdown, file) {
  const copies = [];
  const lines = markdown.split("\n");
  let open;
  lines.forEach((line, index) => {
    const fence = /^(\s*)```(\S*)\s*(.*)$/.exec(line);
    if (!open && fence) open = { file, line: index + 2, code: [] };
    else if (open && /^\s*```\s*$/.test(line)) {
      const copy = copyOf(lines, index + 1);
      if (copy) copies.push({ file: open.file, line: open.line, code: `${open.code.join("\n")}\n`, copyOf: copy });
      open = undefined;
    } else if (open) open.code.push(line);
  });
  return copies;
}

/** Every block of the docs and READMEs that says it is a repository file. */
export function allCopies(base = root) {
  return docFiles(base).flatMap((file) => extractCopies(readFileSync(join(base, file), "utf8"), file));
}

/** Blocks that say they are a file of the repository ("This is `path`") but differ from it, or name no file. */
export function staleCopies(snippets, base = root) {
  return snippets
    .filter((snippet) => snippet.copyOf)
    .filter((snippet) => {
      const path = join(base, snippet.copyOf);
      return !existsSync(path) || readFileSync(path, "utf8") !== snippet.code;
    })
    .map((snippet) => `${snippet.file}:${snippet.line}: differs from ${snippet.copyOf}`);
}

/** Opening fences with no language: every block says what it holds (`ts`, `sh`, `json`, `text`, ...). */
export function untaggedFences(markdown, file) {
  const found = [];
  let open = false;
  markdown.split("\n").forEach((line, index) => {
    const fence = /^\s*```(\S*)/.exec(line);
    if (!fence) return;
    if (!open && fence[1] === "") found.push(`${file}:${index + 1}`);
    open = !open;
  });
  return found;
}

/** GitHub's anchor for a heading: rendered text, lower-cased, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading) {
  const text = heading
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_]{1,2}([^*_]+)[*_]{1,2}/g, "$1");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors a markdown file's headings give, with GitHub's `-1`, `-2` suffixes for repeats. */
export function headingAnchors(markdown) {
  const anchors = new Set();
  const seen = new Map();
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) inCode = !inCode;
    const heading = !inCode && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = headingSlug(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * Relative links (and their `#anchors`) that lead nowhere: the target must exist inside the repository, and an
 * anchor into a markdown file must be one of its headings. Links inside code blocks and to other sites are skipped.
 */
export function brokenLinks(markdown, file, base = root) {
  const broken = [];
  let inCode = false;
  markdown.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) inCode = !inCode;
    if (inCode) return;
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      const [pathPart, anchor] = target.split("#");
      const where = `${file}:${index + 1}: ${target}`;
      const absolute = pathPart ? resolve(base, dirname(file), decodeURIComponent(pathPart)) : join(base, file);
      if (relative(base, absolute).startsWith("..")) {
        broken.push(`${where} (outside the repository)`);
        continue;
      }
      if (!existsSync(absolute)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor && absolute.endsWith(".md") && !headingAnchors(readFileSync(absolute, "utf8")).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  });
  return broken;
}

/** `@heddle/x` and `@heddle/x/sub` mapped to their source entries, read from each package's `exports`. */
export function sourcePaths(base = root) {
  const paths = {};
  for (const name of readdirSync(join(base, "packages"))) {
    const manifestPath = join(base, "packages", name, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const [key, value] of Object.entries(manifest.exports ?? {})) {
      const target = typeof value === "string" ? value : (value.import ?? value.default);
      if (typeof target !== "string" || !target.includes("dist/")) continue;
      const source = target.replace("./dist/", "src/").replace(/\.js$/, ".ts");
      paths[`${manifest.name}${key === "." ? "" : key.slice(1)}`] = [join("packages", name, source)];
    }
  }
  return paths;
}

/** A file name for a snippet that says where it came from. */
export function snippetName(snippet) {
  return `${snippet.file.replace(/[^A-Za-z0-9]+/g, "_")}_L${snippet.line}.ts`;
}

/**
 * Type-checks the snippets with tsc, each as its own module. Returns the errors as "file.md:line: message", with the
 * line counted in the markdown file.
 */
export function typecheckSnippets(snippets, { base = root, workDir } = {}) {
  const dir = workDir ?? join(base, "examples", "recipes", "node_modules", ".cache", "docs-snippets");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const byName = new Map();
  for (const snippet of snippets) {
    const name = snippetName(snippet);
    byName.set(name, snippet);
    // `export {}` keeps each snippet a module, so top-level names never clash between snippets.
    writeFileSync(join(dir, name), `${snippet.code}\nexport {};\n`);
  }
  const relativeRoot = relative(dir, base);
  const paths = Object.fromEntries(
    Object.entries(sourcePaths(base)).map(([key, [target]]) => [key, [join(relativeRoot, target)]]),
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        extends: join(relativeRoot, "tsconfig.base.json"),
        compilerOptions: {
          noEmit: true,
          types: ["node"],
          typeRoots: [join(relativeRoot, "node_modules", "@types")],
          lib: ["ES2022"],
          noUnusedLocals: false,
          noUnusedParameters: false,
          baseUrl: ".",
          paths,
        },
        files: [...byName.keys()],
      },
      null,
      2,
    ),
  );
  const tsc = spawnSync(
    join(base, "node_modules", ".bin", "tsc"),
    ["-p", join(dir, "tsconfig.json"), "--pretty", "false"],
    {
      cwd: dir,
      encoding: "utf8",
    },
  );
  const errors = [];
  for (const line of `${tsc.stdout}${tsc.stderr}`.split("\n")) {
    const match = /^(.*?)\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (!match) {
      if (line.trim() && tsc.status !== 0 && !/^\s/.test(line)) errors.push(line.trim());
      continue;
    }
    const snippet = byName.get(match[1].split("/").pop());
    // An error inside a package's own source is `pnpm typecheck`'s to report (under that package's libs, DOM
    // included); here only the snippets count.
    if (!snippet) continue;
    errors.push(`${snippet.file}:${snippet.line + Number(match[2]) - 1}: ${match[4]}`);
  }
  return { errors, dir };
}

/** Where runnable snippets are written: under examples/recipes, so `@heddle/*` and `zod` resolve to the workspace. */
export const runDir = join(root, "examples", "recipes", "node_modules", ".cache", "docs-snippets-run");

/**
 * Compiles one snippet with esbuild (types stripped, nothing bundled) into `runDir` and runs it with node.
 * Resolves with the exit code (null when killed at the timeout) and the output; never rejects on a failing snippet.
 */
export async function runSnippet(snippet, { env = {}, timeoutMs = 30_000, dir = runDir } = {}) {
  const { transform } = await import("esbuild");
  const { code } = await transform(snippet.code, { loader: "ts", format: "esm", target: "node20" });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, snippetName(snippet).replace(/\.ts$/, ".mjs"));
  writeFileSync(file, code);
  return await new Promise((done) => {
    const child = spawn(process.execPath, [file], { cwd: dir, env: { ...process.env, ...env }, detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // The whole process group, so a snippet that starts children (an MCP server, a shell) leaves nothing behind.
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, stdout, stderr });
    });
  });
}

/** Every snippet of every doc file. */
export function allSnippets(base = root) {
  return docFiles(base).flatMap((file) => extractSnippets(readFileSync(join(base, file), "utf8"), file));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const snippets = allSnippets();
  const problems = docFiles().flatMap((file) => {
    const markdown = readFileSync(join(root, file), "utf8");
    return [
      ...untaggedFences(markdown, file).map((at) => `${at}: a code block without a language`),
      ...brokenLinks(markdown, file),
    ];
  });
  problems.push(...staleCopies(allCopies()));
  const { errors } = typecheckSnippets(snippets);
  console.log(
    `${snippets.length} snippets (${snippets.filter((s) => s.run).length} runnable), ${errors.length} errors`,
  );
  for (const line of [...problems, ...errors]) console.log(line);
  process.exit(errors.length + problems.length ? 1 : 0);
}
