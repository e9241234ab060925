import path from "node:path";
import { z } from "zod";
import { readRegularFile } from "../tools/index.js";
import { McpConfigError } from "./errors.js";

/** A server started as a child process and spoken to over its stdin/stdout. */
export interface McpStdioServerConfig {
  type?: "stdio";
  command: string;
  args?: string[];
  /** Added to the few variables the child inherits (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: { [name: string]: string };
  /** Working folder of the child; relative paths in a file are relative to the file's folder. */
  cwd?: string;
}

/**
 * A server reached over HTTP. `type` unset: streamable HTTP, falling back to the older HTTP+SSE transport when the
 * server refuses streamable HTTP; `"http"` only streamable HTTP; `"sse"` only HTTP+SSE.
 */
export interface McpHttpServerConfig {
  type?: "http" | "sse";
  url: string;
  headers?: { [name: string]: string };
  /**
   * OAuth 2.1 settings for a server that answers 401. Without them the client still signs in when a server asks
   * (discovery and dynamic client registration), as long as the host gives `onAuthorizationUrl`.
   */
  oauth?: McpOAuthConfig;
}

/**
 * How the client signs in to one HTTP server. Every field is optional: by default the client discovers the
 * authorization server, registers itself dynamically and sends the person's browser to sign in (authorization code
 * with PKCE), refreshing tokens as they expire.
 */
export interface McpOAuthConfig {
  /** A client registered beforehand (no dynamic registration). */
  clientId?: string;
  /** The pre-registered client's secret (confidential clients; `client_credentials`). */
  clientSecret?: string;
  /** An HTTPS URL of this client's metadata document, used as its client id where the server supports that. */
  clientMetadataUrl?: string;
  /** `authorization_code` (default: a person signs in) or `client_credentials` (machine to machine, no browser). */
  grantType?: "authorization_code" | "client_credentials";
  /** With `client_credentials`: a PEM private key to authenticate with a signed JWT (`private_key_jwt`). */
  privateKey?: string;
  /** The JWT signing algorithm for `privateKey` (default `RS256`; e.g. `ES256`). */
  signingAlgorithm?: string;
  /** The scopes to ask for when neither the server's 401 nor its metadata names them. */
  scope?: string;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The common `{"mcpServers": {...}}` shape (Claude Code, Cursor, Claude Desktop). */
export interface McpConfig {
  mcpServers: { [name: string]: McpServerConfig };
}

export interface McpConfigOptions {
  /** Where `${VAR}` values come from (default `process.env`). */
  env?: { [name: string]: string | undefined };
}

const stringMap = z.record(z.string(), z.string());
const stdioSchema = z.object({
  type: z.literal("stdio").optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
});
const oauthSchema = z.object({
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().optional(),
  clientMetadataUrl: z.string().min(1).optional(),
  grantType: z.enum(["authorization_code", "client_credentials"]).optional(),
  privateKey: z.string().min(1).optional(),
  signingAlgorithm: z.string().min(1).optional(),
  scope: z.string().optional(),
});
const httpSchema = z.object({
  type: z.enum(["http", "sse", "streamable-http"]).optional(),
  url: z.string().min(1),
  headers: stringMap.optional(),
  oauth: oauthSchema.optional(),
});
const configSchema = z.object({
  mcpServers: z.record(z.string().min(1), z.unknown()),
});

/** `true` when the server is reached over HTTP rather than started as a child process. */
export function isHttpServerConfig(config: McpServerConfig): config is McpHttpServerConfig {
  return "url" in config && typeof (config as McpHttpServerConfig).url === "string";
}

/**
 * Reads an MCP config file (`.heddle/mcp.json` in heddle-code) and expands `${VAR}` / `${VAR:-default}` from the
 * environment. A variable that is unset and has no default is an `McpConfigError` naming it: a server started
 * with an empty API key fails later and less clearly. A relative `cwd` is resolved against the file's folder.
 */
export async function loadMcpConfig(file: string, options: McpConfigOptions = {}): Promise<McpConfig> {
  let text: string;
  try {
    // A FIFO in place of the file (a hostile repository's) is refused, not opened to block forever.
    text = (await readRegularFile(file, file)).toString("utf8");
  } catch (error) {
    throw new McpConfigError(`Cannot read the MCP config ${file}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(`The MCP config ${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parseMcpConfig(json, { ...options, source: file, baseDir: path.dirname(path.resolve(file)) });
}

/** Checks an already parsed config object and expands its `${VAR}`s (see `loadMcpConfig`). */
export function parseMcpConfig(
  json: unknown,
  options: McpConfigOptions & { source?: string; baseDir?: string } = {},
): McpConfig {
  const where = options.source ? ` in ${options.source}` : "";
  const top = configSchema.safeParse(json);
  if (!top.success) {
    throw new McpConfigError(`The MCP config${where} must be an object {"mcpServers": {"<name>": {...}}}.`);
  }
  const env = options.env ?? process.env;
  const missing: string[] = [];
  const servers: McpConfig["mcpServers"] = {};
  for (const [name, raw] of Object.entries(top.data.mcpServers)) {
    const isHttp = typeof raw === "object" && raw !== null && "url" in raw;
    const parsed = (isHttp ? httpSchema : stdioSchema).safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(server)"}: ${issue.message}`);
      throw new McpConfigError(
        `MCP server "${name}"${where} needs {command, args?, env?, cwd?} or {url, headers?, oauth?}: ${issues.join("; ")}`,
      );
    }
    const expand = (value: string, field: string) =>
      expandEnvVars(value, env, (variable) => missing.push(`${variable} (server "${name}", ${field})`));
    const expandMap = (map: { [key: string]: string } | undefined, field: string) =>
      map && Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expand(v, `${field}.${k}`)]));
    if (isHttp) {
      const server = parsed.data as z.output<typeof httpSchema>;
      const headers = expandMap(server.headers, "headers");
      const oauth = server.oauth && (expandMap(server.oauth as { [key: string]: string }, "oauth") as McpOAuthConfig);
      servers[name] = {
        ...(server.type && { type: server.type === "sse" ? "sse" : "http" }),
        url: expand(server.url, "url"),
        ...(headers && { headers }),
        ...(oauth && { oauth }),
      };
    } else {
      const server = parsed.data as z.output<typeof stdioSchema>;
      const serverEnv = expandMap(server.env, "env");
      const cwd = server.cwd && expand(server.cwd, "cwd");
      servers[name] = {
        command: expand(server.command, "command"),
        ...(server.args && { args: server.args.map((arg, i) => expand(arg, `args[${i}]`)) }),
        ...(serverEnv && { env: serverEnv }),
        ...(cwd && { cwd: options.baseDir ? path.resolve(options.baseDir, cwd) : cwd }),
      };
    }
  }
  if (missing.length > 0) {
    throw new McpConfigError(
      `The MCP config${where} uses environment variables that are not set: ${missing.join(", ")}. ` +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text shows the syntax itself
        "Set them, or give a default with ${VAR:-default}.",
    );
  }
  return { mcpServers: servers };
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` and `${VAR:-default}` in `value`. An unset variable without a default is reported through
 * `onMissing` and becomes an empty string (the caller decides whether that is an error; the config loaders say so).
 * As in the shell, `${VAR:-default}` takes the default when VAR is unset or empty; `${VAR}` set to "" is "".
 */
export function expandEnvVars(
  value: string,
  env: { [name: string]: string | undefined },
  onMissing: (variable: string) => void,
): string {
  return value.replace(VARIABLE, (_match, variable: string, fallback: string | undefined) => {
    const found = env[variable];
    if (fallback !== undefined) return found ? found : fallback;
    if (found !== undefined) return found;
    onMissing(variable);
    return "";
  });
}
