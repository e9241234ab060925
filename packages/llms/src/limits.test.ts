// The numbers docs/llms.md states for error kinds, call limits and tool-call arguments.
import { describe, expect, it } from "vitest";
import { DEFAULT_STREAM_LIMITS } from "./call-link.js";
import { kindForStatus } from "./errors.js";
import { parseToolArguments } from "./tool-input-parse.js";

describe("documented limits", () => {
  it("classifies 401 and 403 as auth, 413 as context_overflow, 429 as rate_limit, other 4xx as invalid_request", () => {
    expect([401, 403, 413, 429, 400, 404, 422].map(kindForStatus)).toEqual([
      "auth",
      "auth",
      "context_overflow",
      "rate_limit",
      "invalid_request",
      "invalid_request",
      "invalid_request",
    ]);
  });

  it("gives a call 2 minutes without a byte, 64 MiB of body and 1 hour in all by default", () => {
    expect(DEFAULT_STREAM_LIMITS).toEqual({
      idleTimeoutMs: 120_000,
      maxResponseBytes: 64 * 1024 * 1024,
      maxResponseMs: 3_600_000,
    });
  });

  it("takes arguments nested 100 deep and up to 16 Mi characters, and refuses one more of either", () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect(parseToolArguments(nested(100)).ok).toBe(true);
    expect(parseToolArguments(nested(101)).ok).toBe(false);
    const sized = (length: number) => `{"a":"${"x".repeat(length - 8)}"}`;
    expect(sized(16 * 1024 * 1024)).toHaveLength(16 * 1024 * 1024);
    expect(parseToolArguments(sized(16 * 1024 * 1024)).ok).toBe(true);
    expect(parseToolArguments(sized(16 * 1024 * 1024 + 1))).toMatchObject({ ok: false, error: /too large/ });
  });
});
