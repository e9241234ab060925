import type { Logger } from "@heddle/shared";
import type { SessionEvent, SessionListener } from "./session-events.js";

/**
 * The listeners of one session. A listener that throws is reported to the logger and the others still hear the
 * event: a host's UI bug must not break the turn that is being stored.
 */
export class SessionListeners {
  readonly #listeners = new Set<SessionListener>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  add(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: SessionEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.error(`a session listener threw on "${event.type}" (the session goes on)`, error);
      }
    }
  }

  clear(): void {
    this.#listeners.clear();
  }
}
