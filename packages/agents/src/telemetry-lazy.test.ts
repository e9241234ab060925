import { createScriptedModel } from "@heddle/llms/testing";
import { expect, it, vi } from "vitest";

it("imports @opentelemetry/api only when a run asks for telemetry", async () => {
  let loaded = 0;
  vi.doMock("@opentelemetry/api", async (importOriginal) => {
    loaded++;
    return importOriginal();
  });
  const { AgentRuntime } = await import("./index.js");
  const plain = new AgentRuntime({ model: createScriptedModel([{ text: "hi" }]) });
  expect(await plain.run("go")).toMatchObject({ status: "completed", outputText: "hi" });
  expect(loaded).toBe(0);

  const traced = new AgentRuntime({ model: createScriptedModel([{ text: "hi" }]), telemetry: {} });
  expect(await traced.run("go")).toMatchObject({ status: "completed", outputText: "hi" });
  expect(loaded).toBe(1);
});
