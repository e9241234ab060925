import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  chunksJsonlResponse,
  familyForPath,
  frameSse,
  type MockProviderServer,
  startMockProviderServer,
} from "./mock-server.js";

let server: MockProviderServer;
beforeAll(async () => {
  server = await startMockProviderServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function post(path: string, body: unknown = { hello: "world" }) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "1" },
    body: JSON.stringify(body),
  });
}

describe("mock provider server: framing", () => {
  it("routes each vendor path to its family", () => {
    expect(familyForPath("/v1/messages")).toBe("anthropic");
    expect(familyForPath("/v1/chat/completions")).toBe("openai-chat");
    expect(familyForPath("/v1/responses")).toBe("openai");
    expect(familyForPath("/v1beta/models/gemini-2.5-pro:streamGenerateContent")).toBe("gemini");
    expect(familyForPath("/nope")).toBe("unknown");
  });

  it("frames each family's SSE the way its client expects", () => {
    expect(frameSse("openai-chat", [{ a: 1 }])).toEqual(['data: {"a":1}\n\n', "data: [DONE]\n\n"]);
    expect(frameSse("anthropic", [{ type: "message_stop" }])).toEqual([
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ]);
    expect(frameSse("openai", [{ type: "response.completed" }])[0]).toMatch(/^event: response\.completed\n/);
    expect(frameSse("gemini", [{ candidates: [] }])).toEqual(['data: {"candidates":[]}\r\n\r\n']);
  });

  it("serves scripted events per family, in queue order, with an event-stream content type", async () => {
    server.enqueue("openai-chat", { events: [{ n: 1 }] }, { events: [{ n: 2 }] });
    server.enqueue("gemini", { events: [{ g: 1 }] });
    const gemini = await post("/v1beta/models/m:streamGenerateContent?alt=sse");
    expect(await gemini.text()).toBe('data: {"g":1}\r\n\r\n');
    const first = await post("/v1/chat/completions");
    expect(first.headers.get("content-type")).toBe("text/event-stream");
    expect(await first.text()).toBe('data: {"n":1}\n\ndata: [DONE]\n\n');
    expect(await (await post("/v1/chat/completions")).text()).toContain('"n":2');
    expect(server.pending()).toBe(0);
  });

  it("re-frames a chunks.jsonl recording for the route that serves it", async () => {
    server.enqueue("any", chunksJsonlResponse('{"type":"ping"}\n\n{"type":"message_stop"}\n'));
    expect(await (await post("/v1/messages")).text()).toBe(
      'event: ping\ndata: {"type":"ping"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });

  it("sends faults: a status with headers and a JSON body", async () => {
    server.enqueue("openai-chat", {
      status: 429,
      headers: { "retry-after": "7" },
      json: { error: { message: "slow" } },
    });
    const response = await post("/v1/chat/completions");
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(await response.json()).toEqual({ error: { message: "slow" } });
  });

  it("answers 500 naming the route when nothing is queued", async () => {
    const response = await post("/v1/responses");
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain("no scripted response for openai /v1/responses");
  });

  it("lets a responder decide from the request before the queues", async () => {
    const custom = await startMockProviderServer({
      respond: (request) => (request.body?.model === "special" ? { body: "special" } : undefined),
    });
    custom.enqueue("any", { body: "queued" });
    const call = (model: string) =>
      fetch(`${custom.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model }) }).then((r) =>
        r.text(),
      );
    expect(await call("special")).toBe("special");
    expect(await call("other")).toBe("queued");
    await custom.close();
  });
});

describe("mock provider server: transport faults", () => {
  it("splits the body into the given chunk sizes", async () => {
    server.enqueue("openai-chat", { sse: "abcdefghij", chunkSizes: [1, 3], chunkDelayMs: 5 });
    const response = await post("/v1/chat/completions");
    const reader = response.body!.getReader();
    const reads: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      reads.push(new TextDecoder().decode(value));
    }
    expect(reads.join("")).toBe("abcdefghij");
    // TCP may merge writes that arrive close together (a loaded machine), but never splits inside one here:
    // every read must end on a chunk boundary of 1,3,1,3,1,1 bytes, and the delays give more than one read.
    let offset = 0;
    for (const read of reads) {
      offset += read.length;
      expect([1, 4, 5, 8, 9, 10]).toContain(offset);
    }
    expect(reads.length).toBeGreaterThan(1);
  });

  it("cuts the connection after N bytes", async () => {
    server.enqueue("openai-chat", { sse: "x".repeat(100), cutAfterBytes: 10 });
    const response = await post("/v1/chat/completions");
    await expect(response.text()).rejects.toThrow();
  });

  it("stalls after N bytes until the client gives up", async () => {
    server.enqueue("openai-chat", { sse: "0123456789", stallAfterBytes: 4 });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", signal: controller.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("0123");
    const next = reader.read();
    const outcome = await Promise.race([
      next.then(() => "data"),
      new Promise((r) => setTimeout(() => r("stalled"), 50)),
    ]);
    expect(outcome).toBe("stalled");
    controller.abort();
    await expect(next).rejects.toThrow();
  });

  it("records every request: family, path, query, headers and parsed body", async () => {
    server.enqueue("any", { body: "" });
    await post("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", { contents: [] });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      family: "gemini",
      method: "POST",
      path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent",
      url: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
      body: { contents: [] },
    });
    expect(server.requests[0]!.headers["x-test"]).toBe("1");
  });

  it("gives each family its client's base URL", () => {
    expect(server.baseUrl("openai-chat")).toBe(`${server.url}/v1`);
    expect(server.baseUrl("openai")).toBe(`${server.url}/v1`);
    expect(server.baseUrl("anthropic")).toBe(server.url);
    expect(server.baseUrl("gemini")).toBe(server.url);
  });
});
