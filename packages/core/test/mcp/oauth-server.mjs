// An MCP server that needs OAuth 2.1, with its own authorization server, on 127.0.0.1 (a free port, printed as
// {"port": N}): protected resource metadata, authorization server metadata, dynamic registration, an authorize
// endpoint that approves at once (302 to the redirect URI with code and state), and a token endpoint that checks
// PKCE (S256) and issues refresh tokens. /mcp answers 401 without a valid access token; its one tool `whoami` says
// which token called it. Test controls: POST /control/revoke-access (every access token stops working; refresh
// tokens still do) and GET /control/stats.
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const stats = { registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0, pkceFailures: 0 };
const codes = new Map(); // code -> {challenge, clientId, redirectUri}
const access = new Set();
const refresh = new Set();
const transports = new Map();
let base = "";
let counter = 0;

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};
const readBody = async (req) => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
};
const issue = () => {
  const tokens = {
    access_token: `at-${++counter}`,
    refresh_token: `rt-${counter}`,
    token_type: "Bearer",
    expires_in: 3600,
  };
  access.add(tokens.access_token);
  refresh.add(tokens.refresh_token);
  return tokens;
};

const http = createServer(async (req, res) => {
  const url = new URL(req.url, base);
  if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
    return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
  }
  if (url.pathname === "/.well-known/oauth-authorization-server") {
    return json(res, 200, {
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
    });
  }
  if (url.pathname === "/register" && req.method === "POST") {
    stats.registrations++;
    const metadata = JSON.parse(await readBody(req));
    return json(res, 201, {
      ...metadata,
      client_id: `client-${stats.registrations}`,
      token_endpoint_auth_method: "none",
    });
  }
  if (url.pathname === "/authorize") {
    stats.authorizations++;
    const code = randomUUID();
    codes.set(code, { challenge: url.searchParams.get("code_challenge") });
    const back = new URL(url.searchParams.get("redirect_uri"));
    back.searchParams.set("code", code);
    const state = url.searchParams.get("state");
    if (state) back.searchParams.set("state", state);
    res.writeHead(302, { location: back.href });
    return res.end();
  }
  if (url.pathname === "/token" && req.method === "POST") {
    const form = new URLSearchParams(await readBody(req));
    if (form.get("grant_type") === "authorization_code") {
      const grant = codes.get(form.get("code"));
      codes.delete(form.get("code"));
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!grant || grant.challenge !== challenge) {
        stats.pkceFailures++;
        return json(res, 400, { error: "invalid_grant" });
      }
      stats.codeGrants++;
      return json(res, 200, issue());
    }
    if (form.get("grant_type") === "refresh_token" && refresh.delete(form.get("refresh_token"))) {
      stats.refreshGrants++;
      return json(res, 200, issue());
    }
    return json(res, 400, { error: "invalid_grant" });
  }
  if (url.pathname === "/control/revoke-access") {
    access.clear();
    return json(res, 200, {});
  }
  if (url.pathname === "/control/stats") return json(res, 200, stats);
  if (url.pathname === "/mcp") {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (!access.has(token)) {
      return json(
        res,
        401,
        { error: "invalid_token" },
        { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
      );
    }
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
      });
      const server = new McpServer({ name: "heddle-oauth-test-server", version: "1.0.0" });
      server.registerTool(
        "whoami",
        { description: "Says which token called.", inputSchema: {} },
        async (_args, extra) => ({
          content: [{ type: "text", text: `token ${extra.authInfo?.token ?? token}` }],
        }),
      );
      await server.connect(transport);
    }
    return transport.handleRequest(req, res);
  }
  res.writeHead(404).end();
});
http.listen(0, "127.0.0.1", () => {
  base = `http://127.0.0.1:${http.address().port}`;
  process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`);
});
