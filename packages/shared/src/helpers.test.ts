import { describe, expect, it } from "vitest";
import { ConfigError, HeddleError, isHeddleError } from "./errors.js";
import { eventStream } from "./event-stream.js";
import { createId } from "./ids.js";
import {
  assistantMessage,
  getMessageText,
  getToolCalls,
  normalizeRunInput,
  toolOutputText,
  toolResultMessage,
  userMessage,
} from "./messages.js";
import { stableStringify } from "./stable-stringify.js";
import { addUsage, emptyUsage, promptTokens } from "./usage.js";

describe("ids", () => {
  it("are prefixed, unique and safe for every vendor's tool-call id rules", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createId("run")));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^run_[a-z0-9]{16}$/);
  });
});

describe("usage", () => {
  it("adds field by field, treating missing fields as zero", () => {
    const total = addUsage(addUsage(emptyUsage(), { inputTokens: 10, costUsd: 0.5 }), {
      outputTokens: 3,
      cacheReadTokens: 7,
      costUsd: 0.25,
    });
    expect(total).toEqual({
      inputTokens: 10,
      outputTokens: 3,
      cacheReadTokens: 7,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.75,
    });
    expect(promptTokens({ inputTokens: 10, cacheReadTokens: 7, cacheWriteTokens: 2 })).toBe(19);
  });

  it("does not mutate its inputs", () => {
    const a = emptyUsage();
    addUsage(a, { inputTokens: 5 });
    expect(a.inputTokens).toBe(0);
  });
});

describe("messages", () => {
  it("builds user, assistant and tool messages with ids and timestamps", () => {
    const user = userMessage("hello");
    expect(user).toMatchObject({ role: "user", content: [{ type: "text", text: "hello" }] });
    expect(user.id).toMatch(/^msg_/);
    expect(user.createdAt).toBeGreaterThan(0);
    const assistant = assistantMessage([
      { type: "text", text: "a" },
      { type: "tool-call", toolCallId: "c1", toolName: "t", input: {} },
      { type: "text", text: "b" },
    ]);
    expect(getMessageText(assistant)).toBe("ab");
    expect(getToolCalls(assistant).map((c) => c.toolCallId)).toEqual(["c1"]);
    const tool = toolResultMessage([{ type: "tool-result", toolCallId: "c1", toolName: "t", output: "ok" }]);
    expect(tool.role).toBe("tool");
  });

  it("normalizes every run input form", () => {
    expect(normalizeRunInput("hi")[0]).toMatchObject({ role: "user", content: [{ type: "text", text: "hi" }] });
    expect(normalizeRunInput([{ type: "text", text: "x" }])).toHaveLength(1);
    const m = userMessage("m");
    expect(normalizeRunInput(m)).toEqual([m]);
    expect(normalizeRunInput([m, m])).toEqual([m, m]);
    expect(normalizeRunInput([])).toEqual([]);
  });

  it("renders tool output text, naming images", () => {
    expect(toolOutputText("plain")).toBe("plain");
    expect(
      toolOutputText([
        { type: "text", text: "see" },
        { type: "image", mediaType: "image/png", data: "AAAA" },
      ]),
    ).toBe("see\n[image image/png]");
  });
});

describe("stableStringify", () => {
  it("gives equal strings for equal values whatever the key order", () => {
    expect(stableStringify({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      stableStringify({ a: { c: null, d: [1, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(stableStringify({ a: 1 })).not.toBe(stableStringify({ a: "1" }));
  });
});

describe("eventStream", () => {
  it("yields every event in order, then ends with the work's result", async () => {
    const listeners = new Set<(n: number) => void>();
    const subscribe = (listener: (n: number) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const stream = eventStream<number, string>(
      subscribe,
      async () => {
        for (let i = 0; i < 5; i++) {
          for (const l of listeners) l(i);
          await Promise.resolve();
        }
        return "done";
      },
      () => {
        throw new Error("must not stop early");
      },
    );
    const seen: number[] = [];
    for await (const n of stream) seen.push(n);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(await stream.result).toBe("done");
    expect(listeners.size).toBe(0);
  });

  it("calls stopEarly when the consumer leaves first, and rethrows the work's error at the end", async () => {
    let stopped = 0;
    let emit: (n: number) => void = () => {};
    let finish: () => void = () => {};
    const stream = eventStream<number, void>(
      (listener) => {
        emit = listener;
        return () => {};
      },
      () => new Promise<void>((resolve) => (finish = resolve)),
      () => {
        stopped++;
        finish();
      },
    );
    emit(1);
    for await (const n of stream) if (n === 1) break;
    expect(stopped).toBe(1);

    const failing = eventStream<number, void>(
      () => () => {},
      async () => {
        throw new Error("boom");
      },
      () => {},
    );
    await expect(async () => {
      for await (const _ of failing);
    }).rejects.toThrow("boom");
  });
});

describe("addUsage on hostile counts", () => {
  it("never produces NaN: a non-numeric, infinite or negative count adds zero", () => {
    const bad = {
      inputTokens: "lots",
      outputTokens: Number.NaN,
      costUsd: Number.POSITIVE_INFINITY,
      reasoningTokens: -5,
    };
    const sum = addUsage({ inputTokens: 10, costUsd: 0.5 }, bad as never);
    expect(sum).toEqual({
      inputTokens: 10,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.5,
    });
  });
});

describe("HeddleError", () => {
  it("carries a stable code, and ConfigError is one with code config_invalid", () => {
    const error = new ConfigError("maxIterations must be >= 1");
    expect(error).toBeInstanceOf(HeddleError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("config_invalid");
    expect(isHeddleError(error, "config_invalid")).toBe(true);
    expect(isHeddleError(error, "aborted")).toBe(false);
    expect(isHeddleError(new Error("plain"))).toBe(false);
    const cause = new Error("root");
    expect(new HeddleError("aborted", "y", { cause }).cause).toBe(cause);
  });
});
