// The two architecture rules, as functions the tests call (and a developer can run: `node scripts/architecture.mjs`).
// 1. Imports only point down the layers: shared <- llms <- agents <- core.
// 2. shared, llms and agents stay browser-safe: their bundle for the browser has no `node:` or builtin import.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Which workspace packages each package may import. */
export const ALLOWED_IMPORTS = {
  shared: [],
  llms: ["shared"],
  agents: ["shared", "llms"],
  core: ["shared", "llms", "agents"],
};

/** Public subpaths other packages may import; anything deeper is a deep import. */
const PUBLIC_SUBPATHS = new Set(["", "/testing"]);

export const BROWSER_SAFE = ["shared", "llms", "agents"];

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(path);
  }
  return out;
}

const IMPORT_RE = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;

/** Every layer violation under `root/packages/<name>/src`, as readable strings. */
export function findLayerViolations(root) {
  const violations = [];
  for (const [pkg, allowed] of Object.entries(ALLOWED_IMPORTS)) {
    const src = join(root, "packages", pkg, "src");
    let files;
    try {
      files = sourceFiles(src);
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT_RE)) {
        const spec = match[1];
        const m = /^@heddle\/([^/]+)(\/.*)?$/.exec(spec);
        if (!m) continue;
        const [, target, subpath = ""] = m;
        const where = relative(root, file);
        if (target === pkg) violations.push(`${where}: imports its own package by name (${spec})`);
        else if (!allowed.includes(target))
          violations.push(`${where}: @heddle/${pkg} may not import ${spec} (layers point down)`);
        else if (!PUBLIC_SUBPATHS.has(subpath)) violations.push(`${where}: deep import ${spec}`);
      }
    }
  }
  return violations;
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Bundles `entry` for the browser with esbuild and returns every Node-only import it needed.
 * Dynamic imports (the lazily loaded vendor clients) are followed too.
 */
export async function findNodeImports(entry, { alias } = {}) {
  const esbuild = await import("esbuild");
  const problems = [];
  const nodeOnly = {
    name: "node-only",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.path.startsWith("node:") || BUILTINS.has(args.path)) {
          problems.push(`${args.path} (imported by ${args.importer})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    splitting: true,
    outdir: "/nonexistent-heddle-bundle",
    write: false,
    logLevel: "silent",
    alias,
    plugins: [nodeOnly],
  });
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");
  const violations = findLayerViolations(root);
  for (const v of violations) console.error(v);
  let nodeImports = 0;
  for (const pkg of BROWSER_SAFE) {
    const found = await findNodeImports(join(root, "packages", pkg, "src", "index.ts"));
    for (const f of found) console.error(`@heddle/${pkg} is not browser-safe: ${f}`);
    nodeImports += found.length;
  }
  if (violations.length || nodeImports) process.exit(1);
  console.log("layers ok; shared, llms and agents bundle for the browser");
}
