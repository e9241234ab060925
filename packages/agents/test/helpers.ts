import type { AgentMessage, AgentRuntimeEvent, AgentTool, ContentPart } from "@heddle/shared";
import type { AgentRuntime } from "../src/index.js";

/** Records every event an agent emits. */
export function recordEvents(agent: AgentRuntime): AgentRuntimeEvent[] {
  const events: AgentRuntimeEvent[] = [];
  agent.subscribe((event) => {
    events.push(event);
  });
  return events;
}

/** The tool results carried by a list of messages, in order. */
export function toolResults(messages: readonly AgentMessage[]) {
  return messages.flatMap((m) =>
    m.content.filter((p): p is Extract<ContentPart, { type: "tool-result" }> => p.type === "tool-result"),
  );
}

/** All text of a message list, joined: handy to assert what a request carried. */
export function allText(messages: readonly AgentMessage[]): string {
  return messages
    .flatMap((m) =>
      m.content.map((p) =>
        p.type === "text" ? p.text : p.type === "tool-result" ? (typeof p.output === "string" ? p.output : "") : "",
      ),
    )
    .join("\n");
}

/** A tool with a JSON Schema (checked by the loop) that echoes its text. */
export function echoTool(extra: Partial<AgentTool> = {}): AgentTool {
  return {
    name: "echo",
    description: "Echo the text back",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    execute: (input: { text: string }) => `echo: ${input.text}`,
    ...extra,
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
