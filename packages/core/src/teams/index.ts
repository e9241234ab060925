export { TeamError, type TeamErrorCode } from "./errors.js";
export {
  type SendTeamMessageInput,
  TEAM_MESSAGE_KINDS,
  type TeamMailbox,
  type TeamMailboxMessage,
  type TeamMessageKind,
} from "./mailbox.js";
export { createInMemoryTeamMailboxData, InMemoryTeamMailbox, type InMemoryTeamMailboxData } from "./memory-mailbox.js";
export {
  formatShutdownApproved,
  formatShutdownRequest,
  parseTeamControlMessage,
  type TeamControlKind,
  type TeamControlMessage,
} from "./protocol.js";
export { SqliteTeamMailbox, type SqliteTeamMailboxOptions } from "./sqlite-mailbox.js";
