// Sampling: a server asks the host's model for a completion (`sampling/createMessage`). Served by a Heddle model the
// host chose, under the host's approval and a USD budget. See docs/mcp.md#sampling.
import {
  type AgentMessage,
  type AgentModel,
  type AgentUsage,
  addUsage,
  type ContentPart,
  emptyUsage,
  priceUsage,
} from "@heddle/shared";
import type { CreateMessageRequest, CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** What a server asked the model, as the host's approver sees it. */
export interface McpSamplingRequest {
  /** The configured name of the server asking. */
  server: string;
  /** The request's parameters as the server sent them (messages, systemPrompt, maxTokens, ...). */
  params: CreateMessageRequest["params"];
}

/** The approver's answer; `false` or `{approved: false}` refuses the request (the server gets an error). */
export type McpSamplingDecision = boolean | { approved: boolean; reason?: string };

/** `connectMcpServers({sampling})`: which model serves sampling requests, and under which limits. */
export interface McpSamplingOptions {
  /** The model that answers. Its `info.pricing` (or the usage's own `costUsd`) prices each answer. */
  model: AgentModel;
  /**
   * Asked before each request is sent to the model (a person should see what a server wants to ask). Absent: every
   * request within the budget is sent.
   */
  approve?: (request: McpSamplingRequest) => McpSamplingDecision | Promise<McpSamplingDecision>;
  /** USD the sampling requests of this connection may spend together; once spent, requests are refused. */
  maxBudgetUsd?: number;
  /** The most tokens one answer may have, whatever the server asks (default 4096). */
  maxTokens?: number;
  /** Called with each answer's usage (priced), e.g. to add it to a session's account. */
  onUsage?: (usage: AgentUsage, server: string) => void;
}

export const DEFAULT_SAMPLING_MAX_TOKENS = 4096;
/** JSON-RPC error code the MCP spec's examples use for a request the user rejected. */
const USER_REJECTED = -1;

/** Serves one connection's sampling requests; `spent` is shared by all its servers. */
export class SamplingService {
  readonly #options: McpSamplingOptions;
  #usage: AgentUsage = emptyUsage();

  constructor(options: McpSamplingOptions) {
    this.#options = options;
  }

  /** What the sampling requests of this connection used so far, with their cost. */
  get usage(): AgentUsage {
    return { ...this.#usage };
  }

  async createMessage(
    server: string,
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const { model, maxBudgetUsd } = this.#options;
    if (maxBudgetUsd !== undefined && this.#usage.costUsd >= maxBudgetUsd) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Sampling refused: the host's sampling budget of $${maxBudgetUsd} is spent.`,
      );
    }
    if (this.#options.approve) {
      const decision = await this.#options.approve({ server, params });
      const approved = typeof decision === "boolean" ? decision : decision.approved;
      if (!approved) {
        const reason = typeof decision === "object" && decision.reason ? `: ${decision.reason}` : "";
        throw new McpError(USER_REJECTED, `User rejected sampling request${reason}`);
      }
    }
    const cap = this.#options.maxTokens ?? DEFAULT_SAMPLING_MAX_TOKENS;
    const maxTokens = Math.max(1, Math.min(cap, params.maxTokens));
    let text = "";
    let usage: Partial<AgentUsage> | undefined;
    let finish: { reason: string; error?: { kind: string; status?: number } } | undefined;
    for await (const event of model.stream({
      ...(params.systemPrompt !== undefined && { systemPrompt: params.systemPrompt }),
      messages: params.messages.map(toAgentMessage),
      tools: [],
      options: {
        maxTokens,
        ...(params.temperature !== undefined && { temperature: params.temperature }),
        ...(params.stopSequences !== undefined && { stopSequences: params.stopSequences }),
      },
      signal,
      toolCallDeltas: false,
    })) {
      if (event.type === "text-delta") text += event.text;
      else if (event.type === "usage") usage = event.usage;
      else if (event.type === "finish") finish = event;
    }
    if (usage) {
      const priced = priceUsage(usage, model.info?.pricing);
      this.#usage = addUsage(this.#usage, priced);
      this.#options.onUsage?.(priced, server);
    }
    if (!finish || finish.reason === "error" || finish.reason === "aborted") {
      const why = finish?.error
        ? `${finish.error.kind}${finish.error.status ? ` (HTTP ${finish.error.status})` : ""}`
        : "no answer";
      throw new McpError(
        ErrorCode.InternalError,
        `Sampling failed: the model call ended with ${finish?.reason ?? "nothing"}: ${why}`,
      );
    }
    return {
      role: "assistant",
      content: { type: "text", text },
      model: model.modelId,
      stopReason: finish.reason === "max-tokens" ? "maxTokens" : "endTurn",
    };
  }
}

type SamplingMessage = CreateMessageRequest["params"]["messages"][number];

/** An MCP sampling message as a Heddle message: text and images kept, other content named in a note. */
function toAgentMessage(message: SamplingMessage, index: number): AgentMessage {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const content: ContentPart[] = blocks.map((block): ContentPart => {
    if (block.type === "text") return { type: "text", text: block.text };
    if (block.type === "image") return { type: "image", mediaType: block.mimeType, data: block.data };
    return { type: "text", text: `[${block.type} content left out: this host sends text and images only]` };
  });
  return { id: `mcp-sampling-${index}`, role: message.role, content, createdAt: 0 };
}
