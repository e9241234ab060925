/**
 * Helpers for this family's tests (not exported by the package): collecting a stream, an assistant message from
 * events through the loop's assembler, reading cassettes as text, and seeded random chunking.
 */
import type { AgentMessage, AgentModelEvent, ContentPart } from "@heddle/shared";

export async function collect(stream: AsyncIterable<AgentModelEvent>): Promise<AgentModelEvent[]> {
  const events: AgentModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/**
 * The part of `@heddle/agents`' `StreamAssembler` these tests drive. The tests pass the real one in (imported by
 * relative path in the test files only: this package may not import agents), so they follow the loop's rules.
 */
export interface Assembler {
  push(event: AgentModelEvent): void;
  finish(): { content: ContentPart[] };
}

/** The assistant message the loop would record for a response's events. */
export function assembleAssistant(assembler: Assembler, events: AgentModelEvent[], id = "m-assistant"): AgentMessage {
  for (const event of events) assembler.push(event);
  const { content } = assembler.finish();
  return { id, role: "assistant", content, createdAt: 0, model: { provider: "openai", id: "test" } };
}

/** The JSON request bodies a go-vcr cassette recorded, in order (single-quoted YAML scalars, `''` escaped). */
export function cassetteRequestBodies(yaml: string): any[] {
  return [...yaml.matchAll(/^ {4}body: '(.*)'$/gm)].map((match) => JSON.parse(match[1]!.replaceAll("''", "'")));
}

/** A `*.chunks.jsonl` holding several consecutive responses, split at each `response.created`. */
export function splitResponses(jsonl: string): string[] {
  const responses: string[][] = [];
  for (const line of jsonl.split("\n")) {
    if (!line.trim()) continue;
    if (line.includes('"type":"response.created"')) responses.push([]);
    responses[responses.length - 1]?.push(line);
  }
  return responses.map((lines) => lines.join("\n"));
}

/** A small seeded PRNG (mulberry32), so a failing property case can be replayed. */
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

/** Random chunk sizes covering `length` bytes: mostly tiny (down to 1 byte), sometimes large. */
export function randomChunkSizes(random: () => number, length: number): number[] {
  const sizes: number[] = [];
  for (let covered = 0; covered < length; ) {
    const size = random() < 0.7 ? 1 + Math.floor(random() * 8) : 1 + Math.floor(random() * 600);
    sizes.push(size);
    covered += size;
  }
  return sizes;
}

/**
 * Events with consecutive text, reasoning text and same-call argument fragments joined, so a test can state a
 * whole response exactly without listing every delta. Events carrying vendor data are never merged.
 */
export function condense(events: AgentModelEvent[]): AgentModelEvent[] {
  const out: AgentModelEvent[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (event.type === "text-delta" && last?.type === "text-delta") last.text += event.text;
    else if (event.type === "reasoning-delta" && last?.type === "reasoning-delta" && !last.metadata && !event.metadata)
      last.text += event.text;
    else if (event.type === "tool-call-delta" && last?.type === "tool-call-delta" && last.id === event.id)
      last.text += event.text;
    else out.push({ ...event });
  }
  return out;
}
