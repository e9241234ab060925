import { createScriptedModel } from "@heddle/llms/testing";
import { describe, expect, it } from "vitest";
import { AgentRuntime } from "./index.js";

// Guarantees of the loop that nothing else pinned: each test fails when its behaviour is removed.

describe("loop guarantees", () => {
  it("each beforeModel hook sees the request as the earlier hooks left it", async () => {
    const seen: Array<string | undefined> = [];
    const model = createScriptedModel([{ text: "ok" }]);
    await new AgentRuntime({
      model,
      systemPrompt: "base",
      hooks: {
        beforeModel: [
          ({ request }) => {
            seen.push(request.systemPrompt);
            return { systemPrompt: `${request.systemPrompt} + first` };
          },
          ({ request }) => {
            seen.push(request.systemPrompt);
            return { systemPrompt: `${request.systemPrompt} + second` };
          },
        ],
      },
    }).run("go");
    expect(seen).toEqual(["base", "base + first"]);
    expect(model.requests[0]!.systemPrompt).toBe("base + first + second");
  });

  it("snapshot().usage is a copy: changing it changes nothing in the agent", async () => {
    const agent = new AgentRuntime({
      model: createScriptedModel([{ text: "ok", usage: { inputTokens: 5, costUsd: 0.01 } }]),
    });
    await agent.run("go");
    const snapshot = agent.snapshot();
    snapshot.usage.costUsd = 999;
    snapshot.usage.inputTokens = 999;
    expect(agent.snapshot().usage).toMatchObject({ costUsd: 0.01, inputTokens: 5 });
  });
});
