/// <reference types="node" />
/**
 * Test support for the Anthropic family: fixture loading, a replay call against the mock server, and the
 * loop's way of assembling streamed events into an assistant message. Used by the tests only.
 */
import { readFileSync } from "node:fs";
import type {
  AgentMessage,
  AgentModelEvent,
  AgentModelRequest,
  AgentUsage,
  ContentPart,
  FinishEvent,
  ModelInfo,
  ReasoningPart,
  ToolCallPart,
} from "@heddle/shared";
import { chunksJsonlResponse, type MockProviderServer, type MockResponse } from "../../testing/mock-server.js";
import { family } from "./index.js";

const FIXTURES = new URL("../../../test/fixtures/anthropic/", import.meta.url);

/** A fixture file's text. */
export function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), "utf8");
}

/** A mock response replaying a fixture: raw SSE as is, `*.chunks.jsonl` re-framed with `event:` lines. */
export function fixtureResponse(name: string, extra: Partial<MockResponse> = {}): MockResponse {
  const text = fixture(name);
  return name.endsWith(".chunks.jsonl") ? chunksJsonlResponse(text, extra) : { ...extra, sse: text };
}

/** Runs one attempt of the family against the mock server and collects every event. */
export async function runFamily(
  server: MockProviderServer,
  request: AgentModelRequest,
  extra: { signal?: AbortSignal; apiKey?: string; headers?: Record<string, string>; info?: ModelInfo } = {},
): Promise<AgentModelEvent[]> {
  const events: AgentModelEvent[] = [];
  for await (const event of family.streamOnce({
    providerId: "anthropic",
    modelId: "claude-sonnet-4-20250514",
    apiKey: "apiKey" in extra ? extra.apiKey : "test-key",
    baseUrl: server.baseUrl("anthropic"),
    request,
    signal: extra.signal ?? new AbortController().signal,
    ...(extra.headers && { headers: extra.headers }),
    ...(extra.info && { info: extra.info }),
  })) {
    events.push(event);
  }
  return events;
}

/** A user message with one text part. */
export function userText(text: string): AgentMessage {
  return { id: `u-${text.length}`, role: "user", content: [{ type: "text", text }], createdAt: 0 };
}

/** What a response assembles into, the way the loop folds the events. */
export interface Assembled {
  content: ContentPart[];
  usage: Partial<AgentUsage> | undefined;
  finish: FinishEvent;
  /** Raw `inputText` per tool call, before parsing. */
  inputTexts: string[];
}

/**
 * Folds events as the loop does: text deltas join the current text part; reasoning deltas join the current
 * reasoning part until it is signed or redacted (Anthropic blocks end with their signature; a redacted delta is
 * a whole block); tool-call fragments are keyed by index, and a complete `input` wins over the text.
 */
export function assemble(events: readonly AgentModelEvent[]): Assembled {
  const content: ContentPart[] = [];
  const calls = new Map<number, { part: ToolCallPart; text: string; input?: unknown }>();
  let usage: Partial<AgentUsage> | undefined;
  let finish: FinishEvent | undefined;
  for (const event of events) {
    const last = content[content.length - 1];
    switch (event.type) {
      case "text-delta":
        if (last?.type === "text") last.text += event.text;
        else content.push({ type: "text", text: event.text });
        break;
      case "reasoning-delta": {
        let part: ReasoningPart;
        if (last?.type === "reasoning" && !last.signature && !last.redacted && !event.redacted) part = last;
        else {
          part = { type: "reasoning", text: "" };
          content.push(part);
        }
        part.text += event.text;
        if (event.signature) part.signature = event.signature;
        if (event.redacted) part.redacted = true;
        if (event.metadata) {
          part.providerMetadata = { ...part.providerMetadata };
          for (const [key, value] of Object.entries(event.metadata)) {
            part.providerMetadata[key] = { ...part.providerMetadata[key], ...value };
          }
        }
        break;
      }
      case "tool-call-delta": {
        const index = event.index ?? -1;
        if (event.toolCallId) {
          const part: ToolCallPart = {
            type: "tool-call",
            toolCallId: event.toolCallId,
            toolName: event.toolName ?? "",
            input: undefined,
          };
          content.push(part);
          calls.set(index, { part, text: "" });
        }
        const call = calls.get(index);
        if (!call) throw new Error(`tool-call fragment for unknown index ${index}`);
        if (event.inputText) call.text += event.inputText;
        if (event.input !== undefined) call.input = event.input;
        break;
      }
      case "usage":
        if (usage) throw new Error("more than one usage event");
        usage = event.usage;
        break;
      case "finish":
        if (finish) throw new Error("more than one finish event");
        finish = event;
        break;
    }
  }
  if (!finish) throw new Error("no finish event");
  if (events[events.length - 1] !== finish) throw new Error("finish is not the last event");
  for (const call of calls.values()) {
    if (call.input !== undefined) call.part.input = call.input;
    else {
      try {
        call.part.input = JSON.parse(call.text || "{}");
      } catch {
        // A call cut mid-arguments (max-tokens): the loop never runs it; keep the input unset.
      }
    }
  }
  return { content, usage, finish, inputTexts: [...calls.values()].map((call) => call.text) };
}

/** The request bodies recorded in a go-vcr cassette, in interaction order (`body: '...'` single-quoted YAML). */
export function cassetteRequestBodies(yaml: string): any[] {
  return [...yaml.matchAll(/^ {4}body: '(.*)'$/gm)].map((match) => JSON.parse(match[1]!.replaceAll("''", "'")));
}
