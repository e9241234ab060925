import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { type MockProviderServer, startMockProviderServer } from "../../testing/mock-server.js";
import { collect } from "./test-support.js";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("openai", async (importOriginal) => {
  loads.count += 1;
  return importOriginal();
});

const dir = new URL("../../../test/fixtures/openai-responses/", import.meta.url);
const sse = readFileSync(new URL("text.i0.sse", dir), "utf8");

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());

it("loads the openai client on the first request only, not when the family is imported", async () => {
  const { family } = await import("./index.js");
  expect(family.id).toBe("openai");
  expect(loads.count).toBe(0);
  for (let i = 0; i < 2; i++) {
    server.enqueue("openai", { sse });
    const events = await collect(
      family.streamOnce({
        providerId: "openai",
        modelId: "gpt-4o",
        apiKey: "test-key",
        baseUrl: server.baseUrl("openai"),
        request: { messages: [], tools: [] },
        signal: new AbortController().signal,
      }),
    );
    expect(events[events.length - 1]).toEqual({ type: "finish", reason: "stop" });
  }
  expect(loads.count).toBe(1);
});
