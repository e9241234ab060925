// What a team mailbox or roster backend (backends/<name>/) builds on: the interfaces, their errors and the checks
// every backend runs the same way. Nothing here reaches a runtime or a backend, so a backend imports this file, never
// teams/index.ts (which re-exports the backends).
export * from "./errors.js";
export * from "./mailbox.js";
export * from "./roster.js";
export * from "./team-tasks.js";
