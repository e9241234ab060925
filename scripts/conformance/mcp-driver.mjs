#!/usr/bin/env node
// The client under test for the official MCP conformance suite: Heddle's own `connectMcpServers`, used the way a
// host uses it. The suite starts a scenario server, then runs `node mcp-driver.mjs <server-url>` with the scenario
// name in MCP_CONFORMANCE_SCENARIO and, for some scenarios, credentials in MCP_CONFORMANCE_CONTEXT (JSON).
// The driver connects, calls every tool the server lists (as a model would), and exits 0 only when the server
// connected and every call answered. Run through `pnpm conformance:mcp` (scripts/conformance-mcp.mjs).
import { connectMcpServers } from "../../packages/core/dist/mcp/index.js";

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const url = process.argv[2];
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
if (!url) {
  console.error("usage: MCP_CONFORMANCE_SCENARIO=<name> node mcp-driver.mjs <server-url>");
  process.exit(2);
}

/** Arguments for the tools the scenarios offer; any other tool is called with `{}`. */
const ARGUMENTS = { add_numbers: { a: 2, b: 3 } };

/** The per-server OAuth settings a host would put in its config for this scenario. */
function oauthFor(name) {
  switch (name) {
    case "auth/pre-registration":
      return { clientId: context.client_id, clientSecret: context.client_secret };
    case "auth/client-credentials-basic":
      return { grantType: "client_credentials", clientId: context.client_id, clientSecret: context.client_secret };
    case "auth/client-credentials-jwt":
      return {
        grantType: "client_credentials",
        clientId: context.client_id,
        privateKey: context.private_key_pem,
        signingAlgorithm: context.signing_algorithm ?? "ES256",
      };
    default:
      // A client ID metadata document, used where the authorization server supports them (else: registration).
      return name.startsWith("auth/")
        ? { clientMetadataUrl: "https://conformance-test.local/client-metadata.json" }
        : undefined;
  }
}

/**
 * The person's browser: follows the sign-in page to its redirect (the suite's authorization server approves at
 * once) and hands back the callback URL, as a host's loopback listener would.
 */
async function signIn(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the sign-in page did not redirect (HTTP ${response.status})`);
  return location;
}

const logger = {
  debug: () => {},
  info: (line) => console.error(`info: ${line}`),
  warn: (line) => console.error(`warn: ${line}`),
  error: (line) => console.error(`error: ${line}`),
};

const oauth = oauthFor(scenario);
const mcp = await connectMcpServers(
  { mcpServers: { conformance: { url, ...(oauth && { oauth }) } } },
  {
    clientInfo: { name: "heddle-conformance-driver", version: "1.0.0" },
    connectTimeoutMs: 20_000,
    callTimeoutMs: 20_000,
    logger,
    onAuthorizationUrl: signIn,
    // A person who accepts the form as it is: the schema's defaults fill in what they left empty.
    onElicitation: async () => ({ action: "accept", content: {} }),
  },
);
let failed = false;
try {
  const [server] = mcp.servers();
  if (server.status !== "connected") {
    console.error(`the server did not connect: ${server.error}`);
    failed = true;
  } else {
    for (const tool of mcp.tools()) {
      const signal = new AbortController().signal;
      try {
        const output = await tool.execute(ARGUMENTS[tool.mcp.tool] ?? {}, {
          toolCallId: `call-${tool.mcp.tool}`,
          signal,
          metadata: {},
          emitUpdate: () => {},
          runId: "conformance",
          agentId: "conformance",
          reportUsage: () => {},
        });
        console.log(`${tool.mcp.tool}: ${typeof output === "string" ? output : JSON.stringify(output)}`);
      } catch (error) {
        console.error(`${tool.mcp.tool} failed: ${error?.message ?? error}`);
        failed = true;
      }
    }
  }
} finally {
  await mcp.close();
}
process.exit(failed ? 1 : 0);
