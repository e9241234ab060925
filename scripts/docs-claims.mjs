// Checks the test and benchmark names the docs give as evidence. A sentence that states a fact about Heddle carries a
// marker, `[E3](#evidence)`, and the page ends with an "## Evidence" section whose entry `- **E3**` names the test
// that shows it, as `path/to/file.test.ts` › "test title" (or a benchmark, `bench/x.bench.mjs`). Each named file must
// exist and each quoted title must occur in it, so a renamed or deleted test fails the docs test instead of leaving a
// claim with nothing behind it; each marker needs its entry, each entry a marker and a test, and the prose keeps at
// most a handful of paths inline. Used by scripts/docs-claims.test.ts; by hand: `node scripts/docs-claims.mjs`.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { docFiles, root } from "./docs-snippets.mjs";

const EVIDENCE = /\.(test\.tsx?|test\.mjs|bench\.mjs)$/;
/** Stands for a quoted title that never closes, which the check reports. */
const UNCLOSED = "\0unclosed";
const SKIP_DIRS = new Set(["node_modules", "dist", ".git", ".turbo", "reports"]);

/** Every test and benchmark file of the repository, as paths relative to `base`. */
export function evidenceFiles(base = root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(base, dir), { withFileTypes: true })) {
      if (entry.name.startsWith(".") || SKIP_DIRS.has(entry.name)) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (EVIDENCE.test(entry.name)) found.push(path);
    }
  };
  walk("");
  return found.sort();
}

/** `a/{b,c}/d*.test.ts` as a regular expression over repository paths. */
function patternOf(spec) {
  let source = "";
  for (const char of spec) {
    if (char === "{") source += "(?:";
    else if (char === "}") source += ")";
    else if (char === ",") source += "|";
    else if (char === "*") source += "[^/]*";
    else source += char.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  // A path may be written from its package or folder (`test/cli.test.ts` in the coding agent's docs).
  return new RegExp(`^(?:.*/)?${source}$`);
}

/**
 * The evidence references of one markdown file: each code span naming a test or benchmark file, with the quoted
 * test titles that follow it after "›" (several may follow, separated by "/", "," or "and").
 */
export function extractReferences(markdown, file) {
  const references = [];
  let inFence = false;
  const lines = markdown.split("\n");
  lines.forEach((text, index) => {
    if (/^\s*```/.test(text)) inFence = !inFence;
    if (inFence) return;
    const span = /`([^`\s]+)`/g;
    for (let match = span.exec(text); match; match = span.exec(text)) {
      const spec = match[1].replace(/:\d+$/, "");
      // `src/**/*.test.ts` describes where tests live; it names no test.
      if (spec.includes("**")) continue;
      if (!EVIDENCE.test(spec.replace(/[{}]/g, ""))) continue;
      const titles = [];
      // A title may wrap onto the next lines of its paragraph: read on until a blank line.
      let rest = text.slice(match.index + match[0].length);
      for (let next = index + 1; next < lines.length && lines[next].trim() !== ""; next++)
        rest += ` ${lines[next].trim()}`;
      const arrow = /^\s*›\s*/.exec(rest);
      if (arrow) {
        rest = rest.slice(arrow[0].length);
        for (;;) {
          const title = /^"((?:[^"\\]|\\.)+)"/.exec(rest);
          if (!title) {
            if (rest.startsWith('"')) titles.push(UNCLOSED);
            break;
          }
          titles.push(title[1].replace(/\\"/g, '"'));
          rest = rest.slice(title[0].length);
          const separator = /^\s*(?:\/|,|and|or)\s*(?=")/.exec(rest);
          if (!separator) break;
          rest = rest.slice(separator[0].length);
        }
      }
      references.push({ file, line: index + 1, spec, titles });
    }
  });
  return references;
}

/** Titles built from a template (`it(\`... (preset ${preset})\`)`) as patterns, each `${...}` standing for any text. */
function templateTitles(source) {
  const patterns = [];
  const call = /\b(?:it|test|describe)(?:\.\w+)*\(\s*`((?:\\.|[^`\\])*)`/g;
  for (let match = call.exec(source); match; match = call.exec(source)) {
    if (!match[1].includes("${")) continue;
    const parts = match[1].split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, "\\$&"));
    patterns.push(new RegExp(`^${parts.join(".+")}$`));
  }
  return patterns;
}

/** A title as it may be written in a test file: plainly, with its quotes escaped, or made from a template. */
function occursIn(source, title) {
  if (source.includes(title)) return true;
  const escaped = title.replace(/["'`]/g, (quote) => `\\${quote}`);
  if (source.includes(escaped)) return true;
  return templateTitles(source).some((pattern) => pattern.test(title));
}

/** Problems with the references, as "file.md:line: ..." lines; empty when every named test exists. */
export function checkReferences(references, base = root, files = evidenceFiles(base)) {
  const problems = [];
  const byName = new Map();
  for (const path of files) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  // A bare file name resolves to the full path named last in the same doc, else to the only file of that name.
  const lastFull = new Map();
  for (const reference of references) {
    const where = `${reference.file}:${reference.line}`;
    let paths;
    if (reference.spec.includes("/") || /[*{]/.test(reference.spec)) {
      const pattern = patternOf(reference.spec);
      paths = files.filter((path) => pattern.test(path));
      if (paths.length === 0) {
        problems.push(`${where}: no test or benchmark matches \`${reference.spec}\``);
        continue;
      }
      if (paths.length > 1 && !/[*{]/.test(reference.spec)) {
        problems.push(`${where}: \`${reference.spec}\` is ambiguous (${paths.join(", ")}): give more of its path`);
        continue;
      }
      if (paths.length === 1) lastFull.set(`${reference.file}\0${basename(paths[0])}`, paths[0]);
    } else {
      const known = lastFull.get(`${reference.file}\0${reference.spec}`);
      const named = byName.get(reference.spec) ?? [];
      if (known) paths = [known];
      else if (named.length === 1) paths = named;
      else if (named.length === 0) {
        problems.push(`${where}: no test or benchmark named \`${reference.spec}\``);
        continue;
      } else {
        problems.push(`${where}: \`${reference.spec}\` is ambiguous (${named.join(", ")}): give its path`);
        continue;
      }
    }
    if (reference.titles.length === 0) continue;
    const sources = paths.map((path) => readFileSync(join(base, path), "utf8"));
    for (const title of reference.titles)
      if (title === UNCLOSED) problems.push(`${where}: a quoted test title that never closes`);
      else if (!sources.some((source) => occursIn(source, title)))
        problems.push(`${where}: no test "${title}" in ${paths.join(", ")}`);
  }
  return problems;
}

/** Test paths the prose of a page may name inline, outside its Evidence section. */
export const MAX_INLINE = 5;

/** The markers a page's prose cites: `[E3](#evidence)`. */
const MARKER = /\[E(\d+)\]\(#evidence\)/g;
/** The start of an Evidence entry: `- **E3**`. */
const ENTRY = /^\s*[-*]\s+\*\*E(\d+)\*\*/;

/**
 * Problems with a page's markers and its Evidence section, as "file.md:line: ..." lines: a marker with no entry, a
 * labelled entry (`- **E3**`) that no marker cites or that names no test (an unlabelled item of the section states
 * its claim itself and names its tests), an Evidence section that is not the page's last, and more than
 * `maxInline` test paths in the prose.
 */
export function checkEvidence(markdown, file, { maxInline = MAX_INLINE } = {}) {
  const problems = [];
  const lines = markdown.split("\n");
  const markers = new Map();
  const entries = new Map();
  let inFence = false;
  let section;
  let evidenceLine;
  let current;
  let inlinePaths = 0;
  const references = new Set(extractReferences(markdown, file).map((reference) => reference.line));
  lines.forEach((text, index) => {
    const line = index + 1;
    if (/^\s*```/.test(text)) inFence = !inFence;
    if (inFence) return;
    const heading = /^(#{1,2})\s+(.*?)\s*$/.exec(text);
    if (heading) {
      section = heading[2];
      current = undefined;
      if (heading[1] === "##" && section === "Evidence") evidenceLine = line;
      else if (evidenceLine !== undefined) problems.push(`${file}:${line}: the Evidence section must end the page`);
      return;
    }
    if (section === "Evidence" && evidenceLine !== undefined) {
      const entry = ENTRY.exec(text);
      if (entry) {
        if (entries.has(entry[1])) problems.push(`${file}:${line}: a second Evidence entry E${entry[1]}`);
        current = { id: entry[1], line, tests: 0 };
        entries.set(entry[1], current);
      } else if (/^[-*]\s/.test(text)) {
        current = undefined;
      }
      if (current && references.has(line)) current.tests += extractReferences(text, file).length;
      return;
    }
    for (const match of text.matchAll(MARKER)) if (!markers.has(match[1])) markers.set(match[1], line);
    inlinePaths += extractReferences(text, file).length;
  });
  for (const [id, line] of markers)
    if (!entries.has(id)) problems.push(`${file}:${line}: marker E${id} has no entry in the page's Evidence section`);
  for (const [id, entry] of entries) {
    if (!markers.has(id)) problems.push(`${file}:${entry.line}: Evidence entry E${id} is cited by no marker`);
    if (entry.tests === 0) problems.push(`${file}:${entry.line}: Evidence entry E${id} names no test or benchmark`);
  }
  if (inlinePaths > maxInline)
    problems.push(
      `${file}: ${inlinePaths} test or benchmark paths in the prose (at most ${maxInline}): cite them by marker from the Evidence section`,
    );
  return problems;
}

/** The marker and Evidence problems of every doc and README. */
export function allEvidenceProblems(base = root) {
  return docFiles(base).flatMap((file) => checkEvidence(readFileSync(join(base, file), "utf8"), file));
}

/** Every reference of the docs and READMEs. */
export function allReferences(base = root) {
  return docFiles(base).flatMap((file) => extractReferences(readFileSync(join(base, file), "utf8"), file));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const references = allReferences();
  const problems = [...checkReferences(references), ...allEvidenceProblems()];
  for (const problem of problems) console.log(problem);
  const files = new Set(references.map((reference) => reference.file));
  console.log(`docs-claims: ${references.length} references in ${files.size} files, ${problems.length} problem(s)`);
  process.exitCode = problems.length ? 1 : 0;
}
