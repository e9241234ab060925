// Reads a V8 .cpuprofile (from `node --cpu-prof`) and sums self time per function, so the floor benchmark can
// name where Heddle's extra CPU goes without anyone opening a profiler.
import { readFileSync } from "node:fs";

/** Which code a profile frame belongs to, from its script URL. */
export function ownerOf(url) {
  if (!url) return "node/V8 (native, GC)";
  // undici's HTTP parser (llhttp), compiled to WebAssembly: the fetch under every client here.
  if (url.startsWith("wasm://")) return "undici llhttp (wasm)";
  const heddle = /\/packages\/(agents|llms|shared|core)\/dist\//.exec(url);
  if (heddle) return `@heddle/${heddle[1]}`;
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dependency) return dependency[1];
  if (url.startsWith("node:")) return "node internals";
  return url.replace(/^file:\/\//, "");
}

/**
 * Self time per function and per owner, in ms. Samples are charged to the frame on top of the stack; the
 * `(idle)` and `(program)` pseudo-frames are left out (they are not anyone's code).
 */
export function summarizeProfile(path) {
  const profile = JSON.parse(readFileSync(path, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const functions = new Map();
  const owners = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === "(idle)" || callFrame.functionName === "(program)") continue;
    totalUs += us;
    const owner = ownerOf(callFrame.url);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const file = callFrame.url.split("/").pop() ?? "";
    const key = `${callFrame.functionName || "(anonymous)"} ${file}:${callFrame.lineNumber + 1}`;
    const entry = functions.get(key) ?? { name: key, owner, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const toMs = (us) => us / 1000;
  return {
    totalMs: toMs(totalUs),
    owners: [...owners].map(([owner, us]) => ({ owner, ms: toMs(us) })).sort((a, b) => b.ms - a.ms),
    functions: [...functions.values()].map((f) => ({ ...f, ms: toMs(f.us) })).sort((a, b) => b.ms - a.ms),
  };
}
