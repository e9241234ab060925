import { defineConfig } from "vite";

// The page imports the built workspace packages, exactly as a user's app imports the published ESM.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true },
  logLevel: "warn",
});
