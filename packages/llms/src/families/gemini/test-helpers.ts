/// <reference types="node" />
// Test-only helpers for the gemini family (imported by *.test.ts; excluded from the build by not being exported).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AgentMessage, AgentModelEvent, AgentModelRequest, ContentPart, ToolCallPart } from "@heddle/shared";
import { chunksJsonlResponse, type MockProviderServer, type MockResponse } from "../../testing/mock-server.js";
import { family } from "./index.js";

const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/gemini/", import.meta.url));

export function fixture(name: string): string {
  return readFileSync(`${FIXTURES}${name}`, "utf8");
}

/** A recorded stream as a mock response: raw SSE, a chunks.jsonl, or a js-genai replay recording. */
export function fixtureResponse(name: string, extra: Partial<MockResponse> = {}): MockResponse {
  if (name.endsWith(".sse")) return { ...extra, sse: fixture(name) };
  if (name.endsWith(".chunks.jsonl")) return chunksJsonlResponse(fixture(name), extra);
  if (name.endsWith(".replay.json")) {
    const response = JSON.parse(fixture(name)).interactions[0].response;
    if (response.statusCode !== 200) {
      return { ...extra, status: response.statusCode, body: JSON.stringify(response.bodySegments[0]) };
    }
    return { ...extra, events: response.bodySegments };
  }
  throw new Error(`unknown fixture format: ${name}`);
}

/** The SSE text the mock server would send for a fixture, for re-chunking. */
export function fixtureSseText(name: string): string {
  const response = fixtureResponse(name);
  if (response.sse !== undefined) return response.sse;
  return (response.events ?? []).map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join("");
}

/** The request bodies a go-vcr cassette recorded (`body: |` block scalars holding one JSON line). */
export function cassetteRequestBodies(name: string): any[] {
  const bodies: any[] = [];
  const pattern = /^ {4}body: \|\n {6}(.*)$/gm;
  for (let match = pattern.exec(fixture(name)); match; match = pattern.exec(fixture(name))) {
    bodies.push(JSON.parse(match[1]!));
  }
  return bodies;
}

export function userText(text: string): AgentMessage {
  return { id: `u_${text.length}`, role: "user", content: [{ type: "text", text }], createdAt: 0 };
}

export async function collect(
  server: MockProviderServer,
  request: AgentModelRequest,
  options: { modelId?: string; signal?: AbortSignal; apiKey?: string } = {},
): Promise<AgentModelEvent[]> {
  const events: AgentModelEvent[] = [];
  for await (const event of family.streamOnce({
    providerId: "google",
    modelId: options.modelId ?? "gemini-2.5-flash",
    apiKey: options.apiKey ?? "test-key",
    baseUrl: server.baseUrl("gemini"),
    request,
    signal: options.signal ?? new AbortController().signal,
  })) {
    events.push(event);
  }
  return events;
}

/**
 * The assistant message the loop would build from a response's events: deltas appended in arrival order, tool
 * call fragments joined by index, reasoning signature and metadata kept on the reasoning part.
 */
export function assistantFromEvents(events: AgentModelEvent[]): AgentMessage {
  const content: ContentPart[] = [];
  const calls = new Map<string, ToolCallPart>();
  for (const event of events) {
    const last = content[content.length - 1];
    if (event.type === "text-delta") {
      if (last?.type === "text") last.text += event.text;
      else content.push({ type: "text", text: event.text });
    } else if (event.type === "reasoning-delta") {
      if (last?.type === "reasoning" && !last.signature && event.text.length > 0) {
        last.text += event.text;
        if (event.signature) last.signature = event.signature;
        if (event.metadata) last.providerMetadata = { ...last.providerMetadata, ...event.metadata };
      } else {
        content.push({
          type: "reasoning",
          text: event.text,
          ...(event.signature ? { signature: event.signature } : {}),
          ...(event.metadata ? { providerMetadata: event.metadata } : {}),
        });
      }
    } else if (event.type === "tool-call-start") {
      const call: ToolCallPart = { type: "tool-call", toolCallId: event.id, toolName: event.name, input: {} };
      if (event.metadata) call.providerMetadata = event.metadata;
      calls.set(event.id, call);
      content.push(call);
    } else if (event.type === "tool-call-end") {
      const call = calls.get(event.id);
      if (call && event.error === undefined) call.input = event.input;
    }
  }
  return { id: "a_1", role: "assistant", content, createdAt: 0, model: { provider: "google", id: "gemini" } };
}

/** A small seeded PRNG (mulberry32), so a failing re-chunking case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Replaces invented tool-call ids (which differ per run) so event lists can be compared. */
export function stableIds(events: AgentModelEvent[]): AgentModelEvent[] {
  const ids = new Map<string, string>();
  const stable = (id: string) => {
    if (!id.startsWith("call_")) return id;
    if (!ids.has(id)) ids.set(id, `invented_${ids.size}`);
    return ids.get(id)!;
  };
  return events.map((event) =>
    event.type === "tool-call-start" || event.type === "tool-call-delta" || event.type === "tool-call-end"
      ? { ...event, id: stable(event.id) }
      : event,
  );
}

/** Every `thoughtSignature` value in a fixture, in order (compared verbatim against what the family emits). */
export function fixtureSignatures(name: string): string[] {
  return [...fixture(name).matchAll(/"thoughtSignature": ?"([^"]+)"/g)].map((match) => match[1]!);
}
