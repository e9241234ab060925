import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SessionRuntime } from "@heddle/core";
import { claudeToolNames, toClaudeToolInput } from "@heddle/core/hooks";
import { type AgentMessage, type ContentPart, toolOutputText } from "@heddle/shared";

/**
 * The transcript hooks find at `transcript_path`: one JSON line per message of the session, in Claude Code's line
 * shape (`type`, `uuid`, `sessionId`, `timestamp`, `cwd`, `message: {role, content: [blocks]}`, tool calls as
 * `tool_use` blocks with Claude Code's tool names, results as `tool_result` blocks in a `user` line). The session
 * store stays the record; this file is a copy, rewritten whole when a session is opened and appended as messages
 * are added. Private to the user (0600).
 */
export function transcriptFile(dir: string, sessionId: string): string {
  return path.join(dir, `${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}.jsonl`);
}

/** Writes the session's history to its transcript and appends each new message; returns the function that stops. */
export async function mirrorTranscript(
  session: SessionRuntime,
  dir: string,
  workspaceRoot: string,
): Promise<() => void> {
  const file = transcriptFile(dir, session.id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const line = (message: AgentMessage) => `${JSON.stringify(transcriptLine(message, session.id, workspaceRoot))}\n`;
  writeFileSync(file, (await session.history()).map(line).join(""), { mode: 0o600 });
  return session.subscribe((event) => {
    if (event.type !== "message-added") return;
    try {
      appendFileSync(file, line(event.message));
    } catch {
      // A transcript that cannot be written costs hooks their copy, never the session.
    }
  });
}

/** One message as a Claude Code transcript line. */
export function transcriptLine(message: AgentMessage, sessionId: string, cwd: string): object {
  const role = message.role === "assistant" ? "assistant" : "user";
  return {
    type: role,
    uuid: message.id,
    sessionId,
    timestamp: new Date(message.createdAt).toISOString(),
    cwd,
    message: { role, content: message.content.map((part) => block(part, cwd)) },
  };
}

function block(part: ContentPart, cwd: string): object {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "reasoning":
      return { type: "thinking", thinking: part.text };
    case "image":
      return { type: "image", source: { type: "base64", media_type: part.mediaType, data: "" } };
    case "tool-call":
      return {
        type: "tool_use",
        id: part.toolCallId,
        name: claudeToolNames(part.toolName)[0],
        input: toClaudeToolInput(part.toolName, part.input, cwd),
      };
    case "tool-result":
      return {
        type: "tool_result",
        tool_use_id: part.toolCallId,
        content: toolOutputText(part.output),
        is_error: part.isError === true,
      };
  }
}
