import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";
import { defineConfig } from "tsup";

/**
 * The vendor clients @heddle/llms ships bundled (docs/llms.md, "Bundled vendor clients"): each is built from its
 * source module, `src/vendor/<name>.ts` (which re-exports what the family needs from the vendor's package), into
 * one minified file per variant in dist/vendor/, and package.json "imports" picks the variant (`#vendor/<name>`:
 * "browser" for a browser bundler, "default" for Node and the rest). One file loads in a fraction of the time of
 * the vendor's hundreds of small modules. `@google/genai` stays an optional peer, loaded from the user's install.
 */
const BUNDLED_VENDORS: Record<string, ("node" | "browser")[]> = {
  // The Anthropic SDK's package.json "browser" field swaps its Node internals (fs, child_process...) out.
  anthropic: ["node", "browser"],
  // openai has no browser field: one build serves every platform.
  openai: ["node"],
};

/** Left to the user's install: the OpenTelemetry API keeps one global registry, so it must be the user's copy. */
const VENDOR_EXTERNALS = ["@opentelemetry/api"];

/** In the library's chunks, `src/vendor/<name>.ts` becomes the `#vendor/<name>` import, resolved at run time. */
const vendorImports: Plugin = {
  name: "heddle-vendor-imports",
  setup(b) {
    b.onResolve({ filter: /\/vendor\/[a-z-]+\.js$/ }, (args) => {
      const name = /\/vendor\/([a-z-]+)\.js$/.exec(args.path)?.[1];
      if (!name || !(name in BUNDLED_VENDORS)) return undefined;
      return { path: `#vendor/${name}`, external: true };
    });
  },
};

/** The license text of each package a vendor bundle holds (THIRD_PARTY_NOTICES beside the bundles). */
function notices(metafiles: Metafile[]): string {
  // esbuild names each input relative to this package's folder, the build's working directory.
  const packageDirs = new Set<string>();
  for (const metafile of metafiles)
    for (const input of Object.keys(metafile.inputs)) {
      const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (match) packageDirs.add(match[1] as string);
    }
  const sections: string[] = [];
  for (const dir of [...packageDirs].sort()) {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const files = readdirSync(dir).filter((file) => /^(licen[cs]e|copying|notice)/i.test(file));
    const texts = files.map((file) => readFileSync(join(dir, file), "utf8").trim());
    // A package that publishes no license file: its repository's, kept here (scripts/vendor-licenses/README.md).
    const kept = join("scripts/vendor-licenses", `${manifest.name.replace("/", "+")}.txt`);
    if (texts.length === 0 && existsSync(kept)) texts.push(readFileSync(kept, "utf8").trim());
    if (texts.length === 0) throw new Error(`${manifest.name}: no license text to ship with the vendor bundle`);
    sections.push(
      `${manifest.name}@${manifest.version} (${manifest.license})\n${"-".repeat(72)}\n${texts.join("\n\n")}`,
    );
  }
  return `Third-party software bundled in @heddle/llms's dist/vendor/ files.\n\n${sections.join(`\n\n${"=".repeat(72)}\n\n`)}\n`;
}

async function buildVendors(): Promise<void> {
  const metafiles: Metafile[] = [];
  for (const [name, platforms] of Object.entries(BUNDLED_VENDORS))
    for (const platform of platforms) {
      const result = await build({
        entryPoints: [`src/vendor/${name}.ts`],
        outfile: `dist/vendor/${name}.${platform}.js`,
        bundle: true,
        format: "esm",
        platform,
        target: "es2022",
        external: VENDOR_EXTERNALS,
        // Whitespace and syntax only: names stay readable in a user's stack trace; the sourcemap maps each line back
        // to the vendor's file and line (without the sources' text, which would be 9 of the package's 13 MB).
        minifyWhitespace: true,
        minifySyntax: true,
        sourcemap: true,
        sourcesContent: false,
        legalComments: "none",
        metafile: true,
        logLevel: "warning",
      });
      metafiles.push(result.metafile);
    }
  writeFileSync("dist/vendor/THIRD_PARTY_NOTICES", notices(metafiles));
}

export default defineConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" },
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // The vendor clients are loaded lazily, on a family's first request: `#vendor/*` (bundled above) and
  // `@google/genai` (an optional peer) stay outside the library's own chunks.
  platform: "neutral",
  esbuildPlugins: [vendorImports],
  onSuccess: buildVendors,
});
