// team-roster.test.ts's child: roster-child.ts as a real process (see ../support/child-process.ts); pg and ioredis
// stay external and resolve from core's node_modules.
import { fileURLToPath } from "node:url";
import { childScript } from "../support/child-process.js";

export { type Child, killAll } from "../support/child-process.js";
export const { buildChild, startChild, removeBundle } = childScript(
  fileURLToPath(new URL("./roster-child.ts", import.meta.url)),
  { external: ["pg", "ioredis"], waitTimeoutMs: 30_000 },
);
