import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";

const inputSchema = z.object({
  result: z.string().min(1).describe("The final answer or a summary of what was done."),
});

/** `submit_result {result}`: ends the run with `result` as its output (`lifecycle.completesRun`). */
export function createSubmitResultTool(): AgentTool {
  return createTool({
    name: "submit_result",
    description: "Finish the task: call this once, last, with the final answer or a summary of what you did.",
    input: inputSchema,
    readOnly: true,
    lifecycle: { completesRun: true },
    execute: (input) => input.result,
  });
}
