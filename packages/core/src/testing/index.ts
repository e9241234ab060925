// @heddle/core/testing: helpers for testing hosts and custom stores. Imports vitest (an optional peer).
export { type MakeSessionStore, runSessionStoreConformance } from "./conformance.js";
export { type MakeTeamMailbox, runTeamMailboxConformance } from "./team-mailbox-conformance.js";
