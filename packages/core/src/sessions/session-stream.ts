import { type AgentRunInput, type AgentRunResult, eventStream } from "@heddle/shared";
import type { SessionEvent, SessionListener } from "./session-events.js";

/** One running session stream: its events, then the result. */
export interface SessionRunStream extends AsyncIterable<SessionEvent> {
  readonly result: Promise<AgentRunResult>;
}

/** What a stream needs from its session. */
export interface StreamableSession {
  subscribe(listener: SessionListener): () => void;
  send(input: AgentRunInput): Promise<AgentRunResult>;
  abort(reason?: string): void;
}

/** `send` as an async iterable of the session's events; a consumer that stops reading aborts the turn. */
export function streamTurn(session: StreamableSession, input: AgentRunInput): SessionRunStream {
  return eventStream<SessionEvent, AgentRunResult>(
    (listener) => session.subscribe(listener),
    () => session.send(input),
    () => session.abort("the stream's consumer stopped reading"),
  );
}
