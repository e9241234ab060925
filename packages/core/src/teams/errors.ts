import { HeddleError } from "@heddle/shared";

/** Stable codes of the errors the teams module throws on purpose. */
export type TeamErrorCode = "team_invalid_input" | "team_mailbox_closed" | "team_agent_exists" | "team_agent_running";

/** Every error of sub-agents, mailboxes and teams carries one of `TeamErrorCode`. */
export class TeamError extends HeddleError {
  declare readonly code: TeamErrorCode;
  constructor(code: TeamErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "TeamError";
  }
}
