#!/usr/bin/env node
// The public surface of each published library, as API reports checked in under `api/` (API Extractor).
//   pnpm api:report   writes the reports from the built `dist/*.d.ts` (run `pnpm build` first)
//   pnpm api:check    fails when a report differs from the build: a change to the public surface shows as a diff
//                     in review, and CI refuses it until the report is regenerated and committed.
// One report per package entry (`@heddle/core/teams` is `core-teams.api.md`): API Extractor reads one entry at a time.
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** The libraries users import (the CLI, `@heddle/code`, has no library surface). */
export const PACKAGES = ["shared", "llms", "agents", "core"];

/** Every typed entry of a package's `exports`: its report name and its `.d.ts`. */
export function packageEntries(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const unscoped = manifest.name.replace(/^@[^/]+\//, "");
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== "object" || typeof target.types !== "string") continue;
    const suffix = subpath === "." ? "" : `-${subpath.slice(2).replaceAll("/", "-")}`;
    entries.push({ report: `${unscoped}${suffix}`, subpath, types: join(dir, target.types) });
  }
  return entries;
}

function run({ check }) {
  const { Extractor, ExtractorConfig } = require("@microsoft/api-extractor");
  const reportFolder = join(root, "api");
  const tempFolder = join(root, ".turbo", "api-report");
  mkdirSync(reportFolder, { recursive: true });
  mkdirSync(tempFolder, { recursive: true });
  const changed = [];
  let failed = false;
  for (const name of PACKAGES) {
    const dir = join(root, "packages", name);
    for (const entry of packageEntries(dir)) {
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: dir,
          mainEntryPointFilePath: entry.types,
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: "es2022",
                module: "nodenext",
                moduleResolution: "nodenext",
                strict: true,
                skipLibCheck: true,
                types: ["node"],
                lib: ["es2022", "dom"],
              },
              files: [entry.types],
            },
          },
          apiReport: { enabled: true, reportFolder, reportTempFolder: tempFolder, reportFileName: entry.report },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            compilerMessageReporting: { default: { logLevel: "warning" } },
            // Release tags (@public/@beta) and TSDoc syntax are not how Heddle marks its surface: the report is the list.
            extractorMessageReporting: {
              default: { logLevel: "none" },
              "ae-forgotten-export": { logLevel: "none", addToApiReportFile: false },
            },
            tsdocMessageReporting: { default: { logLevel: "none" } },
          },
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: join(dir, "package.json"),
      });
      const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback });
      if (!result.succeeded && !result.apiReportChanged) failed = true;
      if (result.apiReportChanged) changed.push(`${entry.report}.api.md (${name}${entry.subpath.slice(1)})`);
    }
  }
  if (check && changed.length > 0) {
    console.error(
      `api: the public surface changed and these reports are out of date:\n  ${changed.join("\n  ")}\n` +
        "Run `pnpm build && pnpm api:report`, review the diff of api/*.api.md and commit it.",
    );
    return 1;
  }
  if (failed) return 1;
  console.log(check ? "api: every report matches the build." : `api: ${changed.length} report(s) written.`);
  return 0;
}

/** Only errors are shown: API Extractor's informational lines would bury the one that matters. */
function messageCallback(message) {
  if (message.logLevel !== "error") message.handled = true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = run({ check: process.argv.includes("--check") });
}
