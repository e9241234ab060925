import { type AgentMessage, createId, type ToolResultOutput, userMessage } from "@heddle/shared";

const TAG = "system-reminder";
// Any look-alike tag in text the loop did not write (a tool's output, a file it read) loses its "<", so it can
// never close or open a reminder, whatever nonce it guesses.
const TAG_LOOKALIKE = /<(\/?\s*system-reminder)/gi;

/** Makes text safe to place in the transcript next to reminders: look-alike tags are defused. */
export function neutralizeReminderTags(text: string): string {
  // Most text has no "<" at all; skipping the regex then is measurably cheaper on every tool result.
  return text.includes("<") ? text.replace(TAG_LOOKALIKE, "‹$1") : text;
}

/** A tool output with look-alike reminder tags defused in its text. */
export function neutralizeOutput(output: ToolResultOutput): ToolResultOutput {
  if (typeof output === "string") return neutralizeReminderTags(output);
  return output.map((part) => (part.type === "text" ? { ...part, text: neutralizeReminderTags(part.text) } : part));
}

/** True for a message the loop inserted to carry hook context, notices or reminders. */
export function isContextMessage(message: AgentMessage): boolean {
  const heddle = message.metadata?.heddle as { kind?: unknown } | undefined;
  return heddle?.kind === "context";
}

/**
 * Builds the one user message that carries added context. The tag holds a per-run random nonce, so nothing a
 * tool returns can close it early or forge one.
 */
export class ContextChannel {
  private readonly nonce = createId("r").slice(2);
  private pending: string[] = [];

  add(text: string | undefined): void {
    if (typeof text === "string" && text.trim() !== "") this.pending.push(text);
  }

  /** The pending context as one message, or undefined when there is none; empties the queue. */
  take(): AgentMessage | undefined {
    if (this.pending.length === 0) return undefined;
    const body = this.pending.map(neutralizeReminderTags).join("\n\n");
    this.pending = [];
    const open = `<${TAG} id="${this.nonce}">`;
    const close = `</${TAG} id="${this.nonce}">`;
    return userMessage(`${open}\n${body}\n${close}`, { metadata: { heddle: { kind: "context" } } });
  }
}
