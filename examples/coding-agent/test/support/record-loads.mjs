// `node --import ./record-loads.mjs ...`: appends to the file named by HEDDLE_RECORD_LOADS every module the process
// loads, one a line: ES modules (and CommonJS ones reached by `import`) as their URL, from a module.register hook,
// and CommonJS files reached by `require()` as `cjs:<path>`. cli-start.test.ts uses it to see what `--help` loads.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";

const out = process.env.HEDDLE_RECORD_LOADS;
if (out) {
  register("./record-loads-hooks.mjs", import.meta.url);
  const load = Module._load;
  Module._load = function recordedLoad(...args) {
    try {
      appendFileSync(out, `cjs:${Module._resolveFilename(...args)}\n`);
    } catch {
      // A request that does not resolve fails in the real load below, as it would without this hook.
    }
    return load.apply(this, args);
  };
}
