import { createScriptedModel } from "@heddle/llms/testing";
import { expect, it, vi } from "vitest";

it("loads @heddle/llms only when a run uses the provider form, not for a host's own model", async () => {
  const loaded: string[] = [];
  const scripted = createScriptedModel([{ text: "own model" }, { text: "provider form" }]);
  vi.doMock("@heddle/llms", () => {
    loaded.push("@heddle/llms");
    return { createGateway: () => ({ createAgentModel: () => scripted }) };
  });
  const { AgentRuntime } = await import("./index.js");

  const own = await new AgentRuntime({ model: scripted }).run("hi");
  expect(own.outputText).toBe("own model");
  const provider = new AgentRuntime({ providerId: "anthropic", modelId: "claude-sonnet-4-6" });
  expect(loaded).toEqual([]);

  expect((await provider.run("hi")).outputText).toBe("provider form");
  expect(loaded).toEqual(["@heddle/llms"]);
});
