// The in-process backends: a session store, a team mailbox and a team roster that live in memory (tests, one
// process). No driver to load.
export {
  createInMemoryTeamMailboxData,
  InMemoryTeamMailbox,
  type InMemoryTeamMailboxData,
  type InMemoryTeamMailboxOptions,
} from "./memory-mailbox.js";
export {
  createInMemoryTeamRosterData,
  InMemoryTeamRoster,
  type InMemoryTeamRosterData,
  type InMemoryTeamRosterOptions,
} from "./memory-roster.js";
export { createMemorySessionData, type MemorySessionData, MemorySessionStore } from "./memory-store.js";
