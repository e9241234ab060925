/**
 * The rule this file keeps: what a model reads of a team message is a frame Heddle renders from the mailbox
 * record (its kind and its real sender), and the body inside can never close that frame or open another, because
 * every tag of the team protocol in a body is escaped. Message text is never read as control.
 */
import { type TeamMailboxMessage, toWellFormed } from "./mailbox.js";
import { escapeAttribute, formatShutdownRequest, parseTeamControlMessage } from "./protocol.js";

// The tags a frame or a control is made of; in a body, `<` before any of them becomes `&lt;`.
const FRAME_TAG =
  /<(\s*\/?\s*)(?=(?:teammate_message|teammate_notification|task_notification|shutdown_request|shutdown_approved|team_notice)\b)/gi;

/** A body with every team-protocol tag defused: `</teammate_message>` becomes `&lt;/teammate_message>`. */
export function escapeFrameBody(text: string): string {
  return text.replace(FRAME_TAG, "&lt;$1");
}

/**
 * A mailbox message as a teammate's model reads it. `user` messages (and control kinds from anyone but the lead)
 * are framed with their sender and an escaped body. A shutdown request from the lead is rebuilt from the record.
 * Notifications and approvals are written by teammates' runners, which escape what they quote.
 */
export function renderForTeammate(message: TeamMailboxMessage, leadId: string): string {
  if (message.kind === "shutdown_request" && message.from === leadId)
    return formatShutdownRequest(message.from, parseTeamControlMessage(message.text)?.reason);
  if (message.kind === "task_notification" || message.kind === "shutdown_approved")
    return `<teammate_notification from="${escapeAttribute(message.from)}">\n${message.text}\n</teammate_notification>`;
  return `<teammate_message from="${escapeAttribute(message.from)}">\n${escapeFrameBody(message.text)}\n</teammate_message>`;
}

/** Messages as the lead's model reads them from `team_read_mailbox`: one frame each, bodies escaped. */
export function renderForLead(messages: TeamMailboxMessage[]): string {
  if (messages.length === 0) return "No new messages.";
  return messages
    .map((message) => {
      const attributes = `from="${escapeAttribute(message.from)}" kind="${message.kind}" id="${escapeAttribute(message.id)}"`;
      const body = message.kind === "user" ? escapeFrameBody(message.text) : message.text;
      return `<teammate_message ${attributes}>\n${body}\n</teammate_message>`;
    })
    .join("\n\n");
}

/**
 * A teammate's report to whoever gave it a task (or to the lead, when it stops): its text is escaped, and made
 * well-formed (a lone surrogate from the model becomes U+FFFD), since a mailbox refuses text that is not.
 */
export function formatTaskNotification(
  from: string,
  status: string,
  text: string,
  extra: { [attribute: string]: string } = {},
): string {
  const attributes = Object.entries(extra)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  return `<task_notification from="${escapeAttribute(from)}" status="${escapeAttribute(status)}"${attributes}>\n${escapeFrameBody(toWellFormed(text))}\n</task_notification>`;
}
