/**
 * The public model of Heddle: messages, the model seam, tools, runtime events, hooks, plugins, run
 * configuration and results, one file per concern. Every other package speaks these shapes; vendors are converted
 * at the edge, in `@heddle/llms`.
 */

export * from "./config.js";
export * from "./events.js";
export * from "./hooks.js";
export * from "./identity.js";
export * from "./json.js";
export * from "./messages.js";
export * from "./model.js";
export * from "./plugins.js";
export * from "./results.js";
export * from "./snapshot.js";
export * from "./tools.js";
