import { HeddleError } from "@heddle/shared";

/** Stable codes of the errors the teams module throws on purpose. */
export type TeamErrorCode =
  | "team_invalid_input"
  | "team_mailbox_closed"
  | "team_agent_exists"
  | "team_agent_running"
  | "team_limit_reached";

/** Every error of sub-agents, mailboxes and teams carries one of `TeamErrorCode`. */
export class TeamError extends HeddleError {
  declare readonly code: TeamErrorCode;
  constructor(code: TeamErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "TeamError";
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
