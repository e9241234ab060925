import { type AgentMessage, userMessage } from "@heddle/shared";
import { afterEach } from "vitest";
import type { TranscriptStore } from "../sessions/index.js";

/**
 * Opens a store at `location`. Calling it again with the same location must open the same data (a reopen after
 * a restart); a new location must be empty. Each test gets its own location.
 */
export type MakeStore<S extends { close(): Promise<void> }> = (location: string) => S | Promise<S>;

let locationCounter = 0;

/** `fresh()` opens a store at a new location, `open()` another handle on the current one; all close after each test. */
export function storeHarness<S extends { close(): Promise<void> }>(makeStore: MakeStore<S>) {
  const opened: S[] = [];
  let location = "";
  const open = async (): Promise<S> => {
    const store = await makeStore(location);
    opened.push(store);
    return store;
  };
  const fresh = async (): Promise<S> => {
    location = `conformance-${process.pid}-${Date.now()}-${++locationCounter}`;
    return open();
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  return { open, fresh };
}

/** Appends one user message per text, each after the last; returns them. */
export async function chain(store: TranscriptStore, sessionId: string, texts: string[]): Promise<AgentMessage[]> {
  const out: AgentMessage[] = [];
  for (const text of texts) {
    const message = userMessage(text);
    await store.appendMessage(sessionId, message);
    out.push(message);
  }
  return out;
}
