// The teams process tests' child: team-child.ts as a real process (see ../support/child-process.ts).
import { fileURLToPath } from "node:url";
import { childScript } from "../support/child-process.js";

export { type Child, killAll } from "../support/child-process.js";
export const { buildChild, startChild, removeBundle } = childScript(
  fileURLToPath(new URL("./team-child.ts", import.meta.url)),
);
