import { defineConfig } from "vite";

// The page imports the built workspace packages, exactly as a user's app imports the published ESM.
// `vite` (dev) prints its URL; `vite build` stays quiet but for warnings.
export default defineConfig(({ command }) => ({
  build: { outDir: "dist", emptyOutDir: true },
  logLevel: command === "serve" ? "info" : "warn",
}));
