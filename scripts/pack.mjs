// Packs the public workspace packages as `pnpm publish` would and checks each tarball stands on its own: no
// `workspace:` specifier left, the @heddle/* dependencies at the versions packed beside it, and the files its
// `exports` name inside. Used by scripts/release.mjs and scripts/packed-install.test.ts.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The folders pnpm-workspace.yaml lists ("packages/*", "bench"), each with a package.json. */
function workspaceDirs(base) {
  const yaml = readFileSync(join(base, "pnpm-workspace.yaml"), "utf8");
  const globs = [...yaml.matchAll(/^\s+-\s+"?([^"\s]+)"?\s*$/gm)].map((match) => match[1]);
  return globs.flatMap((glob) => {
    if (!glob.endsWith("/*")) return [glob];
    const parent = glob.slice(0, -2);
    return readdirSync(join(base, parent))
      .sort()
      .map((name) => join(parent, name));
  });
}

/** The packages that are not `private`, dependencies before their dependents (the order they must publish in). */
export function publicPackages(base = root) {
  const found = workspaceDirs(base)
    .filter((dir) => existsSync(join(base, dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(base, dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => !manifest.private);
  const byName = new Map(found.map((entry) => [entry.manifest.name, entry]));
  const ordered = [];
  const visit = (entry) => {
    if (ordered.includes(entry)) return;
    for (const dep of Object.keys(entry.manifest.dependencies ?? {})) if (byName.has(dep)) visit(byName.get(dep));
    ordered.push(entry);
  };
  for (const entry of found) visit(entry);
  return ordered.map(({ dir, manifest }) => ({ name: manifest.name, version: manifest.version, dir: join(base, dir) }));
}

/** The package.json inside a tarball, as npm will read it. */
export function tarballManifest(tarball) {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
}

/** Every file path a manifest's `exports` map points at (types, import, default), without the leading "./". */
function exportTargets(exportsField) {
  const targets = [];
  const walk = (value) => {
    if (typeof value === "string") targets.push(value.replace(/^\.\//, ""));
    else if (value && typeof value === "object") for (const inner of Object.values(value)) walk(inner);
  };
  walk(exportsField);
  return targets;
}

const INSTALLED_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies"];

/**
 * What would break an install of these tarballs outside the workspace, one line each: a `workspace:` specifier, an
 * @heddle/* dependency on a version not packed with it, a file `exports`, `main` or `types` names but the tarball
 * lacks, a missing LICENSE or README.md.
 */
export function tarballProblems(packed) {
  const versions = new Map(packed.map((entry) => [entry.name, entry.manifest.version]));
  const problems = [];
  for (const { name, manifest, files } of packed) {
    for (const field of INSTALLED_FIELDS)
      for (const [dep, spec] of Object.entries(manifest[field] ?? {})) {
        if (String(spec).startsWith("workspace:")) problems.push(`${name}: ${field}.${dep} is still "${spec}"`);
        else if (versions.has(dep) && field === "dependencies" && spec !== versions.get(dep))
          problems.push(`${name}: depends on ${dep}@${spec}, but ${versions.get(dep)} is packed`);
      }
    const inside = new Set(files);
    const wanted = [...exportTargets(manifest.exports), manifest.main, manifest.types, "LICENSE", "README.md"];
    for (const file of wanted) {
      if (file !== undefined && !inside.has(file.replace(/^\.\//, "")))
        problems.push(`${name}: ${file} is not in the tarball`);
    }
  }
  return problems;
}

/**
 * `pnpm pack` of every public package into `dest` (pnpm replaces `workspace:*` with the version, which `npm pack`
 * would leave as is). Run after `pnpm build`. Returns each tarball with its packed manifest and file list.
 */
export function packPublicPackages(dest, base = root) {
  mkdirSync(dest, { recursive: true });
  return publicPackages(base).map(({ name, dir }) => {
    const out = execFileSync("pnpm", ["pack", "--json", "--pack-destination", dest], { cwd: dir, encoding: "utf8" });
    const report = JSON.parse(out.slice(out.indexOf("{")));
    return {
      name,
      tarball: report.filename,
      manifest: tarballManifest(report.filename),
      files: report.files.map((file) => file.path),
    };
  });
}
