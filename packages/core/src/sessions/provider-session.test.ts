import { type MockProviderServer, startMockProviderServer } from "@heddle/llms/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemorySessionStore } from "../backends/memory/index.js";
import { summarizingCompaction } from "../compaction/summarizing.js";
import { createSession, openSession } from "./create-session.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** One Chat Completions answer, as the real wire sends it. */
const answer = (text: string) => ({
  events: [
    { choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
  ],
});

const provider = () => ({
  providerId: "openai-chat",
  modelId: "gpt-4o",
  apiKey: "test",
  baseUrl: server.baseUrl("openai-chat"),
});

const userTexts = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === "user").map((m: any) => JSON.stringify(m.content));

describe("a session in provider form", () => {
  it("resolves one real model for the turns and for summarizing compaction", async () => {
    const store = new MemorySessionStore();
    const long = (label: string) => `${label} ${"lorem ipsum ".repeat(60)}`;
    server.enqueue("openai-chat", answer(long("a1")), answer(long("a2")), answer("SUMMARY OF THE START"), answer("a3"));
    const session = await createSession({
      store,
      ...provider(),
      compaction: { strategy: summarizingCompaction({ keepRecentTokens: 200 }) },
    });
    expect((await session.send(long("q1"))).outputText).toBe(long("a1"));
    await session.send(long("q2"));
    expect(await session.compact()).toMatchObject({ compacted: true });
    await session.send("q3");

    expect(server.requests).toHaveLength(4);
    expect(server.requests.every((request) => request.body.model === "gpt-4o")).toBe(true);
    expect(userTexts(server.requests[2]!.body).join()).toContain("<conversation>");
    const last = userTexts(server.requests[3]!.body);
    expect(last[0]).toContain("SUMMARY OF THE START");
    expect(last.join()).not.toContain("q1 lorem");
    expect(await store.getSession(session.id)).toMatchObject({ model: { provider: "openai-chat", id: "gpt-4o" } });
    await session.close();

    server.enqueue("openai-chat", answer("after reopen"));
    const reopened = await openSession({ store, id: session.id, ...provider() });
    expect((await reopened.send("q4")).outputText).toBe("after reopen");
  });

  it("fails before storing anything when the provider cannot be resolved", async () => {
    const store = new MemorySessionStore();
    await expect(createSession({ store, providerId: "opneai", modelId: "gpt-4o", apiKey: "test" })).rejects.toThrow(
      /opneai/,
    );
    expect(await store.listSessions()).toEqual([]);
  });
});
