/**
 * Helpers for this family's tests (not exported by the package): collecting a stream, assembling an assistant
 * message from events the way the loop does, reading cassettes as text, and seeded random chunking.
 */
import type {
  AgentMessage,
  AgentModelEvent,
  ContentPart,
  ProviderMetadata,
  ReasoningPart,
  ToolCallPart,
} from "@heddle/shared";

export async function collect(stream: AsyncIterable<AgentModelEvent>): Promise<AgentModelEvent[]> {
  const events: AgentModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function mergeMetadata(target: ProviderMetadata | undefined, extra: ProviderMetadata): ProviderMetadata {
  const merged: ProviderMetadata = { ...target };
  for (const family of Object.keys(extra)) merged[family] = { ...merged[family], ...extra[family] };
  return merged;
}

/**
 * An assistant message from a response's events, with the rules of `@heddle/agents`' stream assembler (which this
 * package may not import): text and reasoning appended in arrival order, consecutive reasoning deltas into one
 * part, a delta carrying only a signature or metadata attached to the latest reasoning part, metadata merged per
 * family key; tool calls keyed by index, their argument text parsed once at the end.
 */
export function assembleAssistant(events: AgentModelEvent[], id = "m-assistant"): AgentMessage {
  const content: ContentPart[] = [];
  const calls = new Map<number | string, { part: ToolCallPart; text: string; input?: unknown }>();
  for (const event of events) {
    const last = content[content.length - 1];
    if (event.type === "text-delta") {
      if (last?.type === "text") last.text += event.text;
      else content.push({ type: "text", text: event.text });
    } else if (event.type === "reasoning-delta") {
      const onlyExtras = event.text === "" && (event.signature !== undefined || event.metadata !== undefined);
      let part: ReasoningPart | undefined = last?.type === "reasoning" ? last : undefined;
      for (let i = content.length - 1; !part && onlyExtras && i >= 0; i--) {
        const candidate = content[i]!;
        if (candidate.type === "reasoning") part = candidate;
      }
      if (!part) {
        part = { type: "reasoning", text: "" };
        content.push(part);
      }
      part.text += event.text;
      if (event.signature) part.signature = event.signature;
      if (event.metadata) part.providerMetadata = mergeMetadata(part.providerMetadata, event.metadata);
    } else if (event.type === "tool-call-delta") {
      const key = event.index ?? event.toolCallId ?? 0;
      let call = calls.get(key);
      if (!call) {
        const part: ToolCallPart = {
          type: "tool-call",
          toolCallId: event.toolCallId ?? "",
          toolName: event.toolName ?? "",
          input: {},
        };
        if (event.metadata) part.providerMetadata = event.metadata;
        call = { part, text: "" };
        calls.set(key, call);
        content.push(part);
      }
      if (event.inputText) call.text += event.inputText;
      if (event.input !== undefined) call.input = event.input;
    }
  }
  for (const call of calls.values()) call.part.input = call.input ?? (call.text ? JSON.parse(call.text) : {});
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
    else if (
      event.type === "tool-call-delta" &&
      last?.type === "tool-call-delta" &&
      event.toolCallId === undefined &&
      event.inputText !== undefined &&
      last.index === event.index &&
      last.toolCallId === undefined
    )
      last.inputText = (last.inputText ?? "") + event.inputText;
    else out.push({ ...event });
  }
  return out;
}
