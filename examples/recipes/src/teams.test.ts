import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getToolResults } from "@heddle/shared";
import { describe, expect, it, vi } from "vitest";
import * as subAgent from "./sub-agent.js";
import * as team from "./team.js";

const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), "utf8");

describe("teams recipes", () => {
  it("sub-agent: the lead's answer rests on the child's tool use, and the usage includes the child's", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const result = await subAgent.main();
    expect(result.outputText).toContain("2.0.0");
    const spawnResult = result.messages.flatMap(getToolResults).find((r) => r.toolName === "spawn_agent");
    expect(spawnResult?.output).toBe("2.0.0 dropped Node 18.");
    // The scripted models report 10 input tokens per call: 2 calls of the lead, 2 of the child.
    expect(result.usage.inputTokens).toBe(40);
  });

  it("team: a task and a follow-up reported back, then a shutdown through the protocol", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    const { review, tests, approval, status } = await team.main();
    expect(review.text).toContain("retry loop never gives up");
    expect(tests.text).toContain("happy path only");
    expect(approval.text).toBe('<shutdown_approved from="reviewer"/>');
    expect(status).toEqual([
      expect.objectContaining({ agentId: "reviewer", state: "stopped", stopReason: "shutdown" }),
    ]);
  });

  it("the runnable examples in docs/teams.md are these recipes, word for word", () => {
    const doc = read("../../../docs/teams.md");
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(read("./sub-agent.ts"));
    expect(blocks).toContain(read("./team.ts"));
  });
});
