// A tool with a zod schema: bad input never reaches `execute`; the model gets the zod error as text and retries.
import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { type AgentModel, createTool } from "@heddle/shared";
import { z } from "zod";

export const convert = createTool({
  name: "convert_temperature",
  description: "Convert a temperature between Celsius and Fahrenheit",
  input: z.object({ value: z.number(), from: z.enum(["C", "F"]) }),
  execute: ({ value, from }) =>
    from === "C" ? `${(value * 9) / 5 + 32} °F` : `${(((value - 32) * 5) / 9).toFixed(1)} °C`,
});

/** A scripted stand-in for a model that first gets the arguments wrong. Pass a real model to use one. */
export function scriptedModel(): AgentModel {
  return createScriptedModel([
    { toolCalls: [{ name: "convert_temperature", input: { value: "21", from: "celsius" } }] },
    { toolCalls: [{ name: "convert_temperature", input: { value: 21, from: "C" } }] },
    { text: "21 °C is 69.8 °F." },
  ]);
}

export async function main(model: AgentModel = scriptedModel()) {
  const agent = createAgent({ model, tools: [convert] });
  const result = await agent.run("What is 21 °C in Fahrenheit?");
  for (const message of result.newMessages)
    for (const part of message.content)
      if (part.type === "tool-result") console.log(part.isError ? "tool error:" : "tool result:", part.output);
  console.log(result.outputText);
  return result;
}
