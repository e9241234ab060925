// The module.register half of record-loads.mjs: runs on the loader's own thread and records each module it loads.
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  if (process.env.HEDDLE_RECORD_LOADS) appendFileSync(process.env.HEDDLE_RECORD_LOADS, `${url}\n`);
  return nextLoad(url, context);
}
