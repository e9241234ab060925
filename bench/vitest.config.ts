import { defineProject } from "vitest/config";

// The benchmark harness's own tests. They import the BUILT packages (as the benchmarks do): `pnpm test` builds
// first. The quick run spawns real processes for every client, so it gets a generous timeout.
export default defineProject({
  test: { name: "bench", include: ["*.test.ts"], environment: "node", testTimeout: 600_000, hookTimeout: 60_000 },
});
