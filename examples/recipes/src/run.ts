// Runs one example by name: node dist/run.js <name>
const examples: Record<string, () => Promise<{ main: (...args: never[]) => Promise<unknown> }>> = {
  quickstart: () => import("./quickstart.js"),
  "custom-tool-zod": () => import("./custom-tool-zod.js"),
  "approval-prompt": () => import("./approval-prompt.js"),
  hooks: () => import("./hooks.js"),
  plugin: () => import("./plugin.js"),
  "session-resume": () => import("./session-resume.js"),
  "cross-provider-handoff": () => import("./cross-provider-handoff.js"),
  "sub-agent": () => import("./sub-agent.js"),
  team: () => import("./team.js"),
  "mcp-tools": () => import("./mcp-tools.js"),
};

const exampleName = process.argv[2] ?? "";
const load = examples[exampleName];
if (!load) {
  console.error(`usage: node dist/run.js <${Object.keys(examples).join(" | ")}>`);
  process.exit(2);
}
const { main } = await load();
await main();

export {};
