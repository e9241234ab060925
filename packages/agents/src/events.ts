import type { AgentRuntimeEvent, HookStop } from "@heddle/shared";
import { AgentRuntimeError } from "./errors.js";
import { asksToStop } from "./hooks.js";

type Listener = (event: AgentRuntimeEvent) => unknown;

function isDelta(event: AgentRuntimeEvent): boolean {
  return event.type === "assistant-text-delta" || event.type === "assistant-reasoning-delta";
}

/**
 * Delivers events to `subscribe` listeners and `onEvent` hooks synchronously, in order, never awaiting them:
 * a slow or throwing listener can neither stall the stream nor break the run. A stop returned by an `onEvent`
 * hook on a non-delta event (now or when its promise settles) is handed to `onStop`.
 */
export class EventBus {
  private listeners: Listener[] = [];

  constructor(
    private readonly onEventHooks: () => readonly Listener[],
    private readonly onListenerError: (error: unknown) => void,
  ) {}

  subscribe(listener: Listener): () => void {
    if (typeof listener !== "function")
      throw new AgentRuntimeError("invalid_input", "subscribe: listener must be a function");
    // Copy-on-write: an unsubscribe during delivery does not skip the next listener.
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: AgentRuntimeEvent, onStop: (stop: HookStop) => void): void {
    for (const listener of this.listeners) this.deliver(listener, event, undefined);
    const hooks = this.onEventHooks();
    if (hooks.length === 0) return;
    const stopHandler = isDelta(event) ? undefined : onStop;
    for (const hook of hooks) this.deliver(hook, event, stopHandler);
  }

  private deliver(listener: Listener, event: AgentRuntimeEvent, onStop: ((stop: HookStop) => void) | undefined): void {
    let returned: unknown;
    try {
      returned = listener(event);
    } catch (error) {
      this.onListenerError(error);
      return;
    }
    if (returned === undefined) return;
    if (typeof (returned as Promise<unknown>).then === "function") {
      (returned as Promise<unknown>).then(
        (value) => {
          if (onStop && asksToStop(value)) onStop(value);
        },
        (error) => this.onListenerError(error),
      );
    } else if (onStop && asksToStop(returned)) onStop(returned);
  }
}
