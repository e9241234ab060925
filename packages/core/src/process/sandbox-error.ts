import { HeddleError } from "@heddle/shared";

/**
 * The sandbox was asked for but bubblewrap is missing or cannot run here (not Linux, no user namespaces, a
 * container that forbids them, no seccomp filter for this CPU). Code `sandbox_unavailable`; the message says what
 * failed and how to fix it.
 */
export class SandboxUnavailableError extends HeddleError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("sandbox_unavailable", message, options);
    this.name = "SandboxUnavailableError";
  }
}
