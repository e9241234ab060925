// Prompts: message templates servers offer (a slash command in a host), listed and filled in. Used by
// `McpConnection`; see docs/mcp.md#prompts.
import type { AgentMessage, ContentPart } from "@heddle/shared";
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { allPages, pick } from "./resources.js";
import type { McpServerHandle } from "./server.js";

/** A prompt a server lists (name, title, description, arguments), with the server's configured name. */
export type McpPrompt = Prompt & { server: string };
/** A filled-in prompt as the server returned it: its messages in MCP's shape. */
export type McpPromptResult = GetPromptResult;

export async function listPrompts(handles: readonly McpServerHandle[], server?: string): Promise<McpPrompt[]> {
  const lists = await Promise.all(
    pick(handles, server)
      .filter((handle) => handle.status !== "connected" || handle.capabilities?.prompts)
      .map(async (handle) => {
        const prompts = await allPages(handle, async (client, cursor) => {
          const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
          return { items: page.prompts, nextCursor: page.nextCursor };
        });
        return prompts.map((prompt) => ({ ...prompt, server: handle.name }));
      }),
  );
  return lists.flat();
}

export async function getPrompt(
  handles: readonly McpServerHandle[],
  server: string,
  name: string,
  args: { [name: string]: string } = {},
): Promise<McpPromptResult> {
  const [handle] = pick(handles, server);
  return handle!.request((client) => client.getPrompt({ name, arguments: args }));
}

/**
 * A prompt's messages as Heddle messages, ready for `session.send` or `initialMessages`: text and images kept,
 * embedded text resources as text headed by their URI, anything else as a note.
 */
export function promptMessagesToAgentMessages(result: McpPromptResult): AgentMessage[] {
  return result.messages.map((message, index) => {
    const block = message.content;
    let part: ContentPart;
    if (block.type === "text") part = { type: "text", text: block.text };
    else if (block.type === "image") part = { type: "image", mediaType: block.mimeType, data: block.data };
    else if (block.type === "resource" && "text" in block.resource) {
      const mime = block.resource.mimeType ? ` ${block.resource.mimeType}` : "";
      part = { type: "text", text: `[resource ${block.resource.uri}${mime}]\n${block.resource.text}` };
    } else if (block.type === "resource_link") part = { type: "text", text: `[resource ${block.name} ${block.uri}]` };
    else part = { type: "text", text: `[${block.type} content left out]` };
    return { id: `mcp-prompt-${index}`, role: message.role, content: [part], createdAt: Date.now() };
  });
}
