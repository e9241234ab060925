import { HeddleError } from "@heddle/shared";
import type { DatabaseFileErrorCode } from "../sessions/contract.js";

/** Stable codes of the errors the teams module throws on purpose. */
export type TeamErrorCode =
  | "team_invalid_input"
  | "team_mailbox_closed"
  | "team_agent_exists"
  | "team_agent_running"
  | "team_limit_reached"
  | "team_message_too_large"
  | "team_roster_closed"
  | "team_lease_lost"
  | "team_task_not_found"
  | "team_task_conflict"
  | "subagent_failed"
  | "subagent_limit_reached"
  | DatabaseFileErrorCode;

/** Every error of sub-agents, mailboxes and teams carries one of `TeamErrorCode`. */
export class TeamError extends HeddleError {
  declare readonly code: TeamErrorCode;
  constructor(code: TeamErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "TeamError";
  }
}

/**
 * A mailbox refused a message over its own `maxMessageBytes` (UTF-8 bytes of the text and ids together; default
 * 2 MiB). Nothing was stored. The team's `limits.maxMessageBytes` (a `TeamLimitError`) is checked before this one.
 */
export class TeamMessageTooLargeError extends TeamError {
  declare readonly code: "team_message_too_large";
  readonly bytes: number;
  readonly maxBytes: number;
  constructor(bytes: number, maxBytes: number) {
    super(
      "team_message_too_large",
      `The message is ${bytes} bytes (text and ids, UTF-8); this mailbox stores at most ${maxBytes} ` +
        "(its maxMessageBytes option). Send a shorter one, or a path to a file.",
    );
    this.name = "TeamMessageTooLargeError";
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}

/**
 * An agent id that is in the team already: a running teammate of this manager, or (with a roster) any teammate the
 * roster has recorded, stopped or not, whichever lead recorded it. Nothing was created.
 */
export class TeamAgentExistsError extends TeamError {
  declare readonly code: "team_agent_exists";
  readonly agentId: string;
  constructor(agentId: string, message?: string) {
    super("team_agent_exists", message ?? `A teammate "${agentId}" is already in the team.`);
    this.name = "TeamAgentExistsError";
    this.agentId = agentId;
  }
}

/**
 * A task of the team's task list (`team_tasks`) that cannot do what was asked: unknown (`team_task_not_found`), or
 * claimed by someone else, already done, or completed by an agent that did not claim it (`team_task_conflict`).
 */
export class TeamTaskError extends TeamError {
  declare readonly code: "team_task_not_found" | "team_task_conflict";
  readonly taskId: string | undefined;
  constructor(code: "team_task_not_found" | "team_task_conflict", taskId: string | undefined, message: string) {
    super(code, message);
    this.name = "TeamTaskError";
    this.taskId = taskId;
  }
}

/** The limits of a team (`AgentTeamManagerOptions.limits`). */
export type TeamLimitName = "maxTeammates" | "maxTurns" | "maxBudgetUsd" | "maxMessageBytes" | "maxReplyChain";

/** A team limit refused something: a teammate too many, a message too big, a turn over the team's turns or budget. */
export class TeamLimitError extends TeamError {
  declare readonly code: "team_limit_reached";
  readonly limit: TeamLimitName;
  constructor(limit: TeamLimitName, message: string) {
    super("team_limit_reached", message);
    this.name = "TeamLimitError";
    this.limit = limit;
  }
}

/**
 * A `SqliteTeamMailbox` file that cannot be used: not a database or damaged (`database_corrupt`), not writable
 * (`database_read_only`), or unusable for another reason (`database_unavailable`); the same codes as the session
 * store's `SessionDatabaseError`, since the two often share a file. `path` and the message name the file;
 * `sqliteCode` keeps SQLite's own code.
 */
export class TeamDatabaseError extends TeamError {
  declare readonly code: DatabaseFileErrorCode;
  readonly path: string;
  readonly sqliteCode: string | undefined;
  constructor(code: DatabaseFileErrorCode, path: string, message: string, cause?: unknown) {
    super(code, message, { cause });
    this.name = "TeamDatabaseError";
    this.path = path;
    this.sqliteCode = (cause as { code?: unknown } | undefined)?.code as string | undefined;
  }
}
