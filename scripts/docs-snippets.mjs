// Extracts every TypeScript code block from the docs and the READMEs, type-checks them all against the packages'
// sources, and runs the ones marked runnable (an info string of "ts run"), so a doc cannot drift from the code.
// Used by scripts/docs-snippets.test.ts; also runnable by hand: `node scripts/docs-snippets.mjs`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
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
      if (!open.skip) snippets.push({ ...open, code: `${open.code.join("\n")}\n` });
      open = undefined;
    } else if (!open && fence) {
      open = { skip: true };
    } else if (open && !open.skip) {
      open.code.push(line);
    }
  });
  return snippets;
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
    errors.push(
      snippet ? `${snippet.file}:${snippet.line + Number(match[2]) - 1}: ${match[4]}` : `${match[1]}: ${match[4]}`,
    );
  }
  return { errors, dir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const snippets = docFiles().flatMap((file) => extractSnippets(readFileSync(join(root, file), "utf8"), file));
  const { errors } = typecheckSnippets(snippets);
  console.log(`${snippets.length} snippets, ${errors.length} errors`);
  for (const error of errors) console.log(error);
  process.exit(errors.length ? 1 : 0);
}
