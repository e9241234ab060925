import { createAgent } from "@heddle/agents";
import { createScriptedModel } from "@heddle/llms/testing";
import { createTool } from "@heddle/shared";
import { z } from "zod";

const log = document.querySelector<HTMLDivElement>("#log")!;
const resultLine = document.querySelector<HTMLParagraphElement>("#result")!;

// A browser tool: it reads the page itself.
const pageTitle = createTool({
  name: "page_title",
  description: "The title of the current page",
  input: z.object({}),
  readOnly: true,
  execute: () => document.title,
});

async function runTurn() {
  const model = createScriptedModel([
    { text: "Let me look at the page. ", toolCalls: [{ name: "page_title", input: {} }] },
    (request) => {
      const results = request.messages.at(-1)?.content ?? [];
      const title = results.find((part) => part.type === "tool-result")?.output;
      return { text: `This page is called "${title}".` };
    },
  ]);
  const agent = createAgent({ model, tools: [pageTitle] });
  agent.subscribe((event) => {
    if (event.type === "assistant-text-delta") log.textContent += event.text;
    if (event.type === "tool-finished")
      log.textContent += `\n[${event.toolCall.toolName} → ${String(event.result.output)}]\n`;
  });
  const result = await agent.run("What is this page called?");
  resultLine.textContent = `${result.status}: ${result.outputText}`;
  resultLine.dataset.status = result.status;
}

document.querySelector<HTMLButtonElement>("#run")!.addEventListener("click", () => {
  log.textContent = "";
  runTurn().catch((error: Error) => {
    resultLine.textContent = `error: ${error.message}`;
    resultLine.dataset.status = "error";
  });
});
