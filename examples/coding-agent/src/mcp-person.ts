// What MCP servers ask of the person at the terminal: a form to fill in (elicitation), leave to run a sampling
// request, and a sign-in in the browser (OAuth). See docs/coding-agent.md#mcp-servers.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { homedir } from "node:os";
import path from "node:path";
import type { McpElicitationRequest, McpElicitationResult, McpSamplingRequest } from "@heddle/core";

/** Asks one question and resolves with the answer line (trimmed). Undefined: nobody is there to ask. */
export type AskLine = (question: string) => Promise<string>;

type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: string[];
  oneOf?: Array<{ const: string; title?: string }>;
  items?: { enum?: string[]; anyOf?: Array<{ const: string }> };
  default?: unknown;
  format?: string;
};

/**
 * Asks the person for a server's form, field by field. First whether to answer at all (`n` declines); an empty
 * answer leaves a field out (the form's default, if any, is used); numbers and yes/no are checked and asked again.
 */
export async function askElicitation(
  request: McpElicitationRequest,
  ask: AskLine,
  say: (line: string) => void,
): Promise<McpElicitationResult> {
  say(`MCP server "${request.server}" asks: ${request.message}`);
  const start = (await ask("Answer it? [y]es / [n]o (decline) / [c]ancel: ")).toLowerCase();
  if (start === "n" || start === "no") return { action: "decline" };
  if (start !== "y" && start !== "yes") return { action: "cancel" };
  const content: NonNullable<McpElicitationResult["content"]> = {};
  const required = new Set(request.requestedSchema.required ?? []);
  for (const [name, raw] of Object.entries(request.requestedSchema.properties)) {
    const field = raw as FieldSchema;
    const choices = field.enum ?? field.oneOf?.map((option) => option.const);
    const hint = [
      field.type === "boolean" ? "y/n" : field.type,
      field.format,
      choices && `one of: ${choices.join(", ")}`,
      field.default !== undefined && `default ${JSON.stringify(field.default)}`,
      required.has(name) ? "required" : "optional",
    ]
      .filter(Boolean)
      .join("; ");
    const label = `${field.title ?? name}${field.description ? ` (${field.description})` : ""} [${hint}]: `;
    for (;;) {
      const answer = await ask(label);
      if (answer === "") {
        if (required.has(name) && field.default === undefined) {
          say("this field is required");
          continue;
        }
        break;
      }
      const value = parseField(field, answer, choices);
      if (value === undefined) {
        say(`not a valid ${field.type === "boolean" ? "yes/no" : (field.type ?? "value")}`);
        continue;
      }
      content[name] = value;
      break;
    }
  }
  return { action: "accept", content };
}

function parseField(
  field: FieldSchema,
  answer: string,
  choices: string[] | undefined,
): string | number | boolean | string[] | undefined {
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(answer)) return true;
    if (/^(n|no|false)$/i.test(answer)) return false;
    return undefined;
  }
  if (field.type === "number" || field.type === "integer") {
    const value = Number(answer);
    if (!Number.isFinite(value) || (field.type === "integer" && !Number.isInteger(value))) return undefined;
    return value;
  }
  if (field.type === "array") {
    const allowed = field.items?.enum ?? field.items?.anyOf?.map((option) => option.const);
    const picked = answer
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    return allowed && picked.some((item) => !allowed.includes(item)) ? undefined : picked;
  }
  if (choices && !choices.includes(answer)) return undefined;
  return answer;
}

/** Shows what a server wants the model asked, and asks the person whether to send it. */
export async function askSampling(
  request: McpSamplingRequest,
  ask: AskLine,
  say: (line: string) => void,
): Promise<boolean> {
  const last = request.params.messages.at(-1);
  const blocks = last ? (Array.isArray(last.content) ? last.content : [last.content]) : [];
  const text = blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
  say(
    `MCP server "${request.server}" wants the model asked (up to ${request.params.maxTokens} tokens): ${text.slice(0, 500)}`,
  );
  const answer = (await ask("Send it to the model? [y]es / [n]o: ")).toLowerCase();
  return answer === "y" || answer === "yes";
}

/** Where heddle-code keeps MCP sign-ins: `$XDG_CONFIG_HOME/heddle/mcp-oauth.json`, else `~/.heddle/mcp-oauth.json`. */
export function oauthStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, "heddle", "mcp-oauth.json");
  return path.join(env.HOME || homedir(), ".heddle", "mcp-oauth.json");
}

/** Opens a URL in the person's browser, where there is one; false when no opener could start. */
export function openInBrowser(url: string): Promise<boolean> {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [url], { stdio: "ignore", detached: true });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/**
 * The browser step of an MCP sign-in: listens on the redirect URI (loopback), opens the sign-in page in the browser
 * or prints it, and resolves with the URL the browser came back to. The listener closes once the callback came.
 */
export async function signInWithBrowser(
  authorizationUrl: URL,
  context: { server: string; redirectUrl: string },
  say: (line: string) => void,
  open: (url: string) => Promise<boolean> = openInBrowser,
): Promise<string> {
  const redirect = new URL(context.redirectUrl);
  let settle: (url: string) => void = () => {};
  const came = new Promise<string>((resolve) => {
    settle = resolve;
  });
  const listener = createServer((req, res) => {
    const url = new URL(req.url ?? "/", redirect);
    if (url.pathname !== redirect.pathname) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<p>heddle-code: signed in. You can close this tab.</p>");
    settle(url.href);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(Number(redirect.port || 80), redirect.hostname, () => resolve());
  });
  try {
    const opened = await open(authorizationUrl.href);
    say(
      opened
        ? `MCP server "${context.server}" needs you to sign in: your browser was opened (if not, open ${authorizationUrl.href})`
        : `MCP server "${context.server}" needs you to sign in: open ${authorizationUrl.href}`,
    );
    return await came;
  } finally {
    listener.close();
    listener.closeAllConnections();
  }
}
