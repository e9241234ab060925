import { type AgentTool, createTool } from "@heddle/shared";
import { z } from "zod";
import { ToolInputError } from "../workspace/index.js";

/** What the host's `askUser` callback receives. */
export interface AskUserRequest {
  question: string;
  /** Suggested answers, when the model gave some. */
  options?: string[];
  toolCallId: string;
  signal: AbortSignal;
}

/** The host asks a person and resolves with the answer's text. */
export type AskUserCallback = (request: AskUserRequest) => string | Promise<string>;

const inputSchema = z.object({
  question: z.string().min(1).describe("The question, self-contained."),
  options: z.array(z.string().min(1)).max(10).optional().describe("Suggested answers, if any."),
});

/** `ask_user {question, options?}`: asks the person through the host; refused when no one can answer. */
export function createAskUserTool(askUser?: AskUserCallback): AgentTool {
  return createTool({
    name: "ask_user",
    description:
      "Ask the user a question when you cannot proceed without their decision. Use sparingly; the answer " +
      "comes back as text.",
    input: inputSchema,
    readOnly: true,
    async execute(input, ctx) {
      if (!askUser) {
        throw new ToolInputError(
          "no_user",
          "No user can answer: this run is headless. Decide with your best judgement, state the assumption you made, and continue.",
        );
      }
      const answer = await askUser({
        question: input.question,
        ...(input.options && { options: input.options }),
        toolCallId: ctx.toolCallId,
        signal: ctx.signal,
      });
      return `User answered: ${answer}`;
    },
  });
}
