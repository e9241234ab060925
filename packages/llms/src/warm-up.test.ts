import { beforeEach, expect, it, vi } from "vitest";

const VENDORS = ["openai", "@anthropic-ai/sdk", "@google/genai"];
const FAMILIES = {
  "openai-chat": "./families/openai-chat/index.js",
  anthropic: "./families/anthropic/index.js",
  openai: "./families/openai-responses/index.js",
  gemini: "./families/gemini/index.js",
};

/** A fresh `@heddle/llms` whose vendor clients and family modules record when they are loaded. */
async function recordingGateway() {
  const loaded: string[] = [];
  for (const name of VENDORS)
    vi.doMock(name, () => {
      loaded.push(name);
      return {};
    });
  for (const [id, path] of Object.entries(FAMILIES))
    vi.doMock(path, () => {
      loaded.push(`family:${id}`);
      return { family: { id, streamOnce: () => [] } };
    });
  const llms = await import("./index.js");
  const gateway = llms.createGateway({ env: { OPENAI_API_KEY: "k" }, onWarning: () => {} });
  return { llms, gateway, loaded };
}

beforeEach(() => {
  vi.resetModules();
  for (const name of [...VENDORS, ...Object.values(FAMILIES)]) vi.doUnmock(name);
});

it("warmUp loads the provider's wire family and vendor client before any request", async () => {
  const { gateway, loaded } = await recordingGateway();
  gateway.createAgentModel({ providerId: "openai-chat", modelId: "gpt-4o" });
  expect(loaded).toEqual([]);
  await gateway.warmUp("openai-chat");
  expect(loaded.sort()).toEqual(["family:openai-chat", "openai"]);
});

it("warmUp takes several providers and loads only their modules, each once", async () => {
  const { gateway, loaded } = await recordingGateway();
  await Promise.all([gateway.warmUp(["anthropic", "gemini"]), gateway.warmUp("anthropic")]);
  await gateway.warmUp(["gemini", "anthropic"]);
  expect(loaded.sort()).toEqual(["@anthropic-ai/sdk", "@google/genai", "family:anthropic", "family:gemini"]);
});

it("warmUp follows a registered provider's family", async () => {
  const { gateway, loaded } = await recordingGateway();
  gateway.registerProvider({ id: "in-house", name: "In-house", family: "openai", baseUrl: "http://127.0.0.1:1" });
  await gateway.warmUp("in-house");
  expect(loaded.sort()).toEqual(["family:openai", "openai"]);
});

it("warmUp rejects an unknown provider with UnknownProviderError and loads nothing", async () => {
  const { llms, gateway, loaded } = await recordingGateway();
  const warming = gateway.warmUp(["openai-chat", "no-such-provider"]);
  await expect(warming).rejects.toBeInstanceOf(llms.UnknownProviderError);
  await expect(warming).rejects.toMatchObject({ code: "unknown_provider", providerId: "no-such-provider" });
  expect(loaded).toEqual([]);
});
