import type { AgentRunInput, AgentRunResult } from "@heddle/shared";
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
  const queue: SessionEvent[] = [];
  let done = false;
  let wake: (() => void) | undefined;
  const unsubscribe = session.subscribe((event) => {
    queue.push(event);
    wake?.();
  });
  const result = session.send(input).finally(() => {
    done = true;
    unsubscribe();
    wake?.();
  });
  result.catch(() => {});
  const abort = () => session.abort("the stream's consumer stopped reading");
  async function* events(): AsyncGenerator<SessionEvent> {
    try {
      while (true) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      await result;
    } finally {
      if (!done) abort();
    }
  }
  return Object.assign(events(), { result });
}
