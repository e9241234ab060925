// @heddle/core/testing: helpers for testing hosts and custom stores. Imports vitest (an optional peer).
export { runCheckpointStoreConformance } from "./checkpoint-conformance.js";
export { type MakeSessionStore, runSessionStoreConformance } from "./conformance.js";
export type { MakeStore } from "./harness.js";
export {
  type MakeTeamMailbox,
  runTeamMailboxConformance,
  type TeamMailboxConformanceOptions,
} from "./team-mailbox-conformance.js";
export { type MakeTeamRoster, runTeamRosterConformance } from "./team-roster-conformance.js";
export { runTranscriptStoreConformance } from "./transcript-conformance.js";
export { runUsageStoreConformance } from "./usage-conformance.js";
export { runWorkingContextStoreConformance } from "./working-context-conformance.js";
