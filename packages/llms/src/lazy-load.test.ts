import { expect, it, vi } from "vitest";

it("importing @heddle/llms and creating models loads no vendor client", async () => {
  const loaded: string[] = [];
  for (const name of ["openai", "@anthropic-ai/sdk", "@google/genai"])
    vi.doMock(name, () => {
      loaded.push(name);
      return {};
    });
  const { createGateway } = await import("./index.js");
  const gateway = createGateway({
    env: { ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k", GEMINI_API_KEY: "k" },
    onWarning: () => {},
  });
  for (const providerId of ["anthropic", "openai", "openai-chat", "gemini", "ollama"])
    gateway.createAgentModel({ providerId, modelId: "gpt-4o" });
  expect(loaded).toEqual([]);
});
