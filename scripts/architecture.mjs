// The architecture rules, as functions the tests call (and a developer can run: `node scripts/architecture.mjs`).
// 1. Imports only point down the layers: shared <- llms <- agents <- core; other packages only through their
//    public entries (`@heddle/core/sessions`, never `@heddle/core/src/...`); no package augments another's types
//    (`declare module "@heddle/shared"`): the contract declares every field itself.
// 2. shared, llms and agents stay browser-safe: their bundle for the browser has no `node:` or builtin import.
// 3. No import circle inside a package, type-only imports included: a type circle is still two concerns that
//    cannot be understood (or moved) apart, and `import type` turns into a value import with one edit.
// 4. agents reaches @heddle/llms only where it turns the provider form into a model (ALLOWED_LLMS_IMPORTERS).
// 5. A core concern folder (sessions/, tools/, ...) imports another folder only through its index.ts (or its
//    contract.ts, the interfaces a backend builds on). Each backends/<name>/ counts as a folder of its own.
// 6. Backends (backends/<name>/: memory, sqlite, postgres, redis) stand apart: a backend imports no other backend
//    (backends/sql/ holds what the SQL ones share, and reaches no backend), and outside backends/ only a folder's
//    contract.ts, never a runtime; a contract.ts reaches no backend, so no arrow points up from a backend.
// 7. src throws typed errors: no plain `new Error(` outside tests (a HeddleError with a catalogued code instead).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Which workspace packages each package may import. */
export const ALLOWED_IMPORTS = {
  shared: [],
  llms: ["shared"],
  agents: ["shared", "llms"],
  core: ["shared", "llms", "agents"],
};

/** Public subpaths of each package (its package.json "exports"); anything deeper is a deep import. */
export const PUBLIC_SUBPATHS = {
  shared: [""],
  llms: ["", "/testing"],
  agents: [""],
  core: [
    "",
    "/sessions",
    "/tools",
    "/hooks",
    "/safety",
    "/compaction",
    "/guidance",
    "/checkpoints",
    "/plugins",
    "/mcp",
    "/teams",
    "/testing",
  ],
};

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

const AUGMENT_RE = /declare\s+module\s+["'](@heddle\/[^"']+)["']/g;
const IMPORT_RE = /(?:from\s+|import\s*\(\s*|import\s+|require\s*\(\s*)["']([^"']+)["']/g;

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
      // The contract declares its own fields: a package does not patch another's types from outside.
      for (const match of text.matchAll(AUGMENT_RE))
        violations.push(`${relative(root, file)}: augments ${match[1]} with declare module (declare the field there)`);
      for (const match of text.matchAll(IMPORT_RE)) {
        const spec = match[1];
        // A relative path out of the package reaches another package's files, past its exports and the layer rule.
        if (spec.startsWith(".")) {
          const target = resolve(dirname(file), spec);
          const own = join(root, "packages", pkg);
          if (relative(own, target).startsWith(".."))
            violations.push(`${relative(root, file)}: imports ${spec}, outside @heddle/${pkg}, by a relative path`);
          continue;
        }
        const m = /^@heddle\/([^/]+)(\/.*)?$/.exec(spec);
        if (!m) continue;
        const [, target, subpath = ""] = m;
        const where = relative(root, file);
        if (target === pkg) violations.push(`${where}: imports its own package by name (${spec})`);
        else if (!allowed.includes(target))
          violations.push(`${where}: @heddle/${pkg} may not import ${spec} (layers point down)`);
        else if (!(PUBLIC_SUBPATHS[target] ?? [""]).includes(subpath)) violations.push(`${where}: deep import ${spec}`);
      }
    }
  }
  return violations;
}

/** Every relative import of every source file of `src`, resolved to files: `{file -> [imported files]}`. */
function relativeImportGraph(src) {
  const graph = new Map();
  for (const file of sourceFiles(src)) {
    const targets = [];
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
      const spec = match[1];
      if (!spec.startsWith(".")) continue;
      const target = resolveRelative(file, spec);
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

function resolveRelative(from, spec) {
  const base = resolve(dirname(from), spec);
  const stem = base.replace(/\.(js|mjs|ts)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mjs`, base, join(base, "index.ts")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** Every import circle inside each package (relative imports, type-only ones included), once each. */
export function findImportCycles(root) {
  const cycles = [];
  for (const pkg of Object.keys(ALLOWED_IMPORTS)) {
    const src = join(root, "packages", pkg, "src");
    if (!existsSync(src)) continue;
    const graph = relativeImportGraph(src);
    const state = new Map(); // file -> "active" | "done"
    const stack = [];
    const seen = new Set();
    const visit = (file) => {
      state.set(file, "active");
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === "active") {
          const circle = stack.slice(stack.indexOf(next));
          const key = [...circle].sort().join("|");
          if (!seen.has(key)) {
            seen.add(key);
            cycles.push(`import circle: ${[...circle, next].map((f) => relative(root, f)).join(" -> ")}`);
          }
        } else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
  }
  return cycles;
}

/**
 * The only files of @heddle/agents that may import @heddle/llms: the loop talks to a model through the
 * `AgentModel` seam in shared, and only the provider form (`providerId` + `modelId`) needs the gateway.
 */
export const ALLOWED_LLMS_IMPORTERS = ["packages/agents/src/resolve-model.ts"];

/** Files of @heddle/agents that import @heddle/llms outside `ALLOWED_LLMS_IMPORTERS`. */
export function findAgentsLlmsImports(root) {
  const src = join(root, "packages", "agents", "src");
  if (!existsSync(src)) return [];
  const violations = [];
  for (const file of sourceFiles(src)) {
    const where = relative(root, file).split(sep).join("/");
    if (ALLOWED_LLMS_IMPORTERS.includes(where)) continue;
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT_RE))
      if (/^@heddle\/llms(\/|$)/.test(match[1]))
        violations.push(`${where}: @heddle/agents imports ${match[1]} outside the provider-form loader`);
  }
  return violations;
}

/** The folder a core source file belongs to: `sessions`, `backends/sqlite`, ...; `undefined` for a top-level file. */
function coreFolderOf(src, file) {
  const parts = relative(src, file).split(sep);
  if (parts.length < 2) return undefined;
  return parts[0] === "backends" && parts.length > 2 ? `backends/${parts[1]}` : parts[0];
}

/** Imports from one core concern folder into another folder's files other than its entries. */
export function findConcernInternalsImports(root) {
  const src = join(root, "packages", "core", "src");
  if (!existsSync(src)) return [];
  const violations = [];
  for (const [file, targets] of relativeImportGraph(src)) {
    const from = coreFolderOf(src, file);
    if (!from) continue;
    for (const target of targets) {
      const to = coreFolderOf(src, target);
      if (!to || to === from) continue;
      const entry = relative(join(src, to), target);
      // A backend has no contract of its own: the rest of core reaches it through its index.ts only.
      if (entry === "index.ts" || (entry === "contract.ts" && !to.startsWith("backends/"))) continue;
      violations.push(
        `${relative(root, file)}: imports ${relative(root, target)}, an internal of ${to}/ (import ${to}/index.ts)`,
      );
    }
  }
  return violations;
}

/** Folders under backends/ that are shared helpers, not backends: any backend may use them; they use none. */
export const SHARED_BACKEND_FOLDERS = ["backends/sql"];

/**
 * Arrows that point the wrong way around the backends: a backend importing another backend, a backend importing
 * anything outside backends/ but a folder's contract.ts, or a contract.ts (or what it imports) reaching a backend.
 */
export function findBackendViolations(root) {
  const src = join(root, "packages", "core", "src");
  if (!existsSync(join(src, "backends"))) return [];
  const graph = relativeImportGraph(src);
  const isBackendFolder = (folder) => folder?.startsWith("backends/") && !SHARED_BACKEND_FOLDERS.includes(folder);
  const violations = [];
  for (const [file, targets] of graph) {
    const from = coreFolderOf(src, file);
    if (!from?.startsWith("backends/")) continue;
    for (const target of targets) {
      const to = coreFolderOf(src, target);
      if (to === from) continue;
      const where = relative(root, file);
      if (to?.startsWith("backends/")) {
        if (SHARED_BACKEND_FOLDERS.includes(from) || isBackendFolder(to))
          violations.push(`${where}: imports ${relative(root, target)}, another backend (backends stand apart)`);
      } else if (relative(src, target).split(sep).at(-1) !== "contract.ts" || !to)
        violations.push(
          `${where}: imports ${relative(root, target)}, outside the backends (a backend imports only a contract.ts)`,
        );
    }
  }
  // Everything a contract.ts reaches, followed file by file: none of it may be a backend.
  for (const file of graph.keys()) {
    if (relative(src, file).split(sep).at(-1) !== "contract.ts" || coreFolderOf(src, file)?.startsWith("backends/"))
      continue;
    const seen = new Set([file]);
    const queue = [file];
    while (queue.length) {
      const next = queue.shift();
      for (const target of graph.get(next) ?? []) {
        if (seen.has(target)) continue;
        seen.add(target);
        if (coreFolderOf(src, target)?.startsWith("backends/")) {
          violations.push(
            `${relative(root, file)}: reaches ${relative(root, target)}, a backend (a contract is below them)`,
          );
          continue;
        }
        queue.push(target);
      }
    }
  }
  return violations;
}

/**
 * Violations the rules found in folders owned by other work in flight when the rules were written. They are
 * printed, not failed on; delete an entry when its fix lands (a stale entry is printed as such).
 */
export const KNOWN_VIOLATIONS = [];

/** Files only tests load (helpers beside the tests); they may throw plain errors. */
const TEST_SUPPORT = /(?:\.test\.ts|[\\/]test-(?:utils|helpers)\.ts)$/;

/**
 * Every plain `new Error(` in the source of the packages and of heddle-code (tests and their helpers aside), as
 * "file:line: ..." strings. Heddle throws a `HeddleError` subclass with a code from the one catalog
 * (packages/shared/src/error-codes.ts), so a host can switch on it; a plain Error has no code.
 */
export function findPlainErrors(root) {
  const dirs = [];
  if (existsSync(join(root, "packages")))
    for (const name of readdirSync(join(root, "packages"))) dirs.push(join(root, "packages", name, "src"));
  dirs.push(join(root, "examples", "coding-agent", "src"));
  const found = [];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const file of sourceFiles(dir)) {
      if (TEST_SUPPORT.test(file)) continue;
      const name = relative(root, file).split(sep).join("/");
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (/^\s*(?:\/\/|\*)/.test(line)) return;
          if (/\bnew\s+Error\s*\(/.test(line))
            found.push(`${name}:${index + 1}: plain new Error( (throw a HeddleError with a catalogued code)`);
        });
    }
  }
  return found;
}

/** Every rule's violations under `root` (the browser bundles aside): `{failures, known, stale}`. */
export function checkArchitecture(root) {
  const all = [
    ...findLayerViolations(root),
    ...findImportCycles(root),
    ...findAgentsLlmsImports(root),
    ...findConcernInternalsImports(root),
    ...findPlainErrors(root),
    ...findBackendViolations(root),
  ];
  return {
    failures: all.filter((v) => !KNOWN_VIOLATIONS.includes(v)),
    known: all.filter((v) => KNOWN_VIOLATIONS.includes(v)),
    stale: KNOWN_VIOLATIONS.filter((v) => !all.includes(v)),
  };
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
  const { failures: violations, known, stale } = checkArchitecture(root);
  for (const v of known) console.warn(`known, to fix: ${v}`);
  for (const v of stale) console.warn(`fixed, remove from KNOWN_VIOLATIONS: ${v}`);
  for (const v of violations) console.error(v);
  let nodeImports = 0;
  for (const pkg of BROWSER_SAFE) {
    const found = await findNodeImports(join(root, "packages", pkg, "src", "index.ts"));
    for (const f of found) console.error(`@heddle/${pkg} is not browser-safe: ${f}`);
    nodeImports += found.length;
  }
  if (violations.length || nodeImports) process.exit(1);
  console.log(
    "layers, circles, folder boundaries, backends and typed errors ok; shared, llms and agents bundle for the browser",
  );
}
