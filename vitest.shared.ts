import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * Tests resolve workspace packages to their sources, so a change is tested without a rebuild.
 * The built entries are checked separately: scripts/architecture.test.ts › "every built entry exports exactly what its
 * source does (a stale dist fails here)".
 */
export const workspaceAlias = [
  { find: /^@heddle\/llms\/testing$/, replacement: `${root}packages/llms/src/testing/index.ts` },
  { find: /^@heddle\/core\/(\w+)$/, replacement: `${root}packages/core/src/$1/index.ts` },
  { find: /^@heddle\/(shared|llms|agents|core)$/, replacement: `${root}packages/$1/src/index.ts` },
];
