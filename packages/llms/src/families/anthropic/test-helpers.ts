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
 * a whole block); tool calls are blocks keyed by id, each started once and ended once before a clean finish.
 */
export function assemble(events: readonly AgentModelEvent[]): Assembled {
  const content: ContentPart[] = [];
  const calls = new Map<string, { part: ToolCallPart; text: string; ended?: boolean }>();
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
      case "tool-call-start": {
        if (calls.has(event.id)) throw new Error(`tool call ${event.id} started twice`);
        const part: ToolCallPart = { type: "tool-call", toolCallId: event.id, toolName: event.name, input: undefined };
        content.push(part);
        calls.set(event.id, { part, text: "" });
        break;
      }
      case "tool-call-delta": {
        const call = calls.get(event.id);
        if (!call) throw new Error(`tool-call fragment for unknown call ${event.id}`);
        call.text += event.text;
        break;
      }
      case "tool-call-end": {
        const call = calls.get(event.id);
        if (!call) throw new Error(`tool-call end for unknown call ${event.id}`);
        if (call.ended) throw new Error(`tool call ${event.id} ended twice`);
        call.ended = true;
        // A call whose arguments did not parse (cut at max-tokens) never runs; its input stays unset.
        if (event.error === undefined) call.part.input = event.input;
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
  for (const call of calls.values())
    if (!call.ended && finish.reason !== "error" && finish.reason !== "aborted")
      throw new Error(`tool call ${call.part.toolCallId} never ended before ${finish.reason}`);
  return { content, usage, finish, inputTexts: [...calls.values()].map((call) => call.text) };
}

/** The request bodies recorded in a go-vcr cassette, in interaction order (`body: '...'` single-quoted YAML). */
export function cassetteRequestBodies(yaml: string): any[] {
  return [...yaml.matchAll(/^ {4}body: '(.*)'$/gm)].map((match) => JSON.parse(match[1]!.replaceAll("''", "'")));
}
