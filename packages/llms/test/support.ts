/**
 * Shared test helpers for @heddle/llms: fixture reading, event collection, tool-call assembly and seeded
 * re-chunking. Test-only (Node).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AgentModelEvent } from "@heddle/shared";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** A fixture file under `test/fixtures/<family>/`, as text. */
export function readFixture(family: string, name: string): string {
  return readFileSync(`${FIXTURES}${family}/${name}`, "utf8");
}

/** Every event of a stream, in order. */
export async function collect(stream: AsyncIterable<AgentModelEvent>): Promise<AgentModelEvent[]> {
  const events: AgentModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export interface AssembledCall {
  id: string;
  name: string;
  inputText: string;
  input: unknown;
}

/** Tool calls from their block events: started by `tool-call-start`, finished by `tool-call-end`. */
export function assembleToolCalls(events: AgentModelEvent[]): AssembledCall[] {
  const calls: AssembledCall[] = [];
  const byId = new Map<string, AssembledCall>();
  for (const event of events) {
    if (event.type === "tool-call-start") {
      const call: AssembledCall = { id: event.id, name: event.name, inputText: "", input: undefined };
      calls.push(call);
      byId.set(event.id, call);
    } else if (event.type === "tool-call-delta") {
      const call = byId.get(event.id);
      if (call) call.inputText += event.text;
    } else if (event.type === "tool-call-end") {
      const call = byId.get(event.id);
      if (!call) throw new Error(`tool-call-end for a call never started: ${event.id}`);
      if (event.error !== undefined) throw new Error(`tool call ${event.id} did not parse: ${event.error}`);
      call.input = event.input;
    }
  }
  for (const call of calls) if (call.input === undefined) throw new Error(`tool call ${call.id} never ended`);
  return calls;
}

/** The concatenated text deltas. */
export function textOf(events: AgentModelEvent[]): string {
  return events.map((event) => (event.type === "text-delta" ? event.text : "")).join("");
}

/** The last event, which the protocol says is `finish`. */
export function finishOf(events: AgentModelEvent[]): Extract<AgentModelEvent, { type: "finish" }> {
  const last = events.at(-1);
  if (last?.type !== "finish") throw new Error(`stream did not end with finish: ${JSON.stringify(last)}`);
  return last;
}

/** A small seeded PRNG (mulberry32), so a failing property case can be replayed from its seed. */
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

/** Random chunk sizes covering `totalBytes`: mostly small (down to 1 byte), sometimes large. */
export function randomChunkSizes(random: () => number, totalBytes: number): number[] {
  const sizes: number[] = [];
  let covered = 0;
  while (covered < totalBytes) {
    const roll = random();
    const size = roll < 0.3 ? 1 : roll < 0.8 ? 1 + Math.floor(random() * 16) : 1 + Math.floor(random() * 600);
    sizes.push(size);
    covered += size;
  }
  return sizes;
}

/** The JSON request bodies a go-vcr v2 cassette recorded, in interaction order. */
export function goVcrRequestBodies(cassette: string): unknown[] {
  const bodies: unknown[] = [];
  for (const match of cassette.matchAll(/^ {4}body: '((?:[^']|'')*)'$/gm))
    bodies.push(JSON.parse(match[1]!.replace(/''/g, "'")));
  return bodies;
}

/** The assistant message a stream amounts to, assembled the way the loop does (for multi-turn tests). */
export function assistantFromEvents(
  events: AgentModelEvent[],
  model: { provider: string; id: string },
  id = "assistant",
): import("@heddle/shared").AgentMessage {
  const content: import("@heddle/shared").ContentPart[] = [];
  let reasoning: import("@heddle/shared").ReasoningPart | undefined;
  let text: { type: "text"; text: string } | undefined;
  for (const event of events) {
    if (event.type === "reasoning-delta") {
      if (!reasoning) {
        reasoning = { type: "reasoning", text: "" };
        content.push(reasoning);
      }
      reasoning.text += event.text;
      if (event.signature) reasoning.signature = event.signature;
      if (event.redacted) reasoning.redacted = true;
      if (event.metadata) {
        const merged: Record<string, Record<string, unknown>> = { ...reasoning.providerMetadata };
        for (const [family, values] of Object.entries(event.metadata))
          merged[family] = { ...merged[family], ...values };
        reasoning.providerMetadata = merged;
      }
    } else if (event.type === "text-delta") {
      reasoning = undefined;
      if (!text) {
        text = { type: "text", text: "" };
        content.push(text);
      }
      text.text += event.text;
    }
  }
  for (const call of assembleToolCalls(events))
    content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input });
  return { id, role: "assistant", content, createdAt: 1, model };
}
