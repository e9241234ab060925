// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are ${VAR} config values, not templates
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isHeddleError } from "@heddle/shared";
import { afterAll, describe, expect, it } from "vitest";
import { expandEnvVars, loadMcpConfig, parseMcpConfig } from "./config.js";
import { McpConfigError } from "./errors.js";

const dir = mkdtempSync(join(tmpdir(), "heddle-mcp-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  return file;
}

describe("${VAR} expansion", () => {
  const env = { TOKEN: "secret", EMPTY: "" };
  const expand = (value: string) => {
    const missing: string[] = [];
    return { value: expandEnvVars(value, env, (v) => missing.push(v)), missing };
  };

  it("replaces set variables, anywhere in the string, and leaves other text alone", () => {
    expect(expand("Bearer ${TOKEN}").value).toBe("Bearer secret");
    expect(expand("${TOKEN}-${TOKEN}").value).toBe("secret-secret");
    expect(expand("$TOKEN and ${ not a var }").value).toBe("$TOKEN and ${ not a var }");
  });

  it("uses ${VAR:-default} when the variable is unset or empty, like the shell", () => {
    expect(expand("${UNSET:-fallback}")).toEqual({ value: "fallback", missing: [] });
    expect(expand("${EMPTY:-fallback}").value).toBe("fallback");
    expect(expand("${TOKEN:-fallback}").value).toBe("secret");
    expect(expand("${EMPTY}")).toEqual({ value: "", missing: [] });
  });

  it("reports an unset variable without a default", () => {
    expect(expand("x${UNSET}y")).toEqual({ value: "xy", missing: ["UNSET"] });
  });
});

describe("loadMcpConfig", () => {
  it("reads the mcpServers shape, expands variables in every field, and resolves cwd against the file", async () => {
    const file = writeConfig("ok.json", {
      mcpServers: {
        local: {
          command: "${BIN_DIR}/server",
          args: ["--token", "${TOKEN}", "--mode=${MODE:-fast}"],
          env: { API_KEY: "${TOKEN}" },
          cwd: "work",
        },
        remote: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        legacy: { type: "sse", url: "http://127.0.0.1:1/sse" },
      },
    });
    const config = await loadMcpConfig(file, { env: { BIN_DIR: "/opt", TOKEN: "t0k", HOST: "example.com" } });
    expect(config.mcpServers).toEqual({
      local: {
        command: "/opt/server",
        args: ["--token", "t0k", "--mode=fast"],
        env: { API_KEY: "t0k" },
        cwd: join(dir, "work"),
      },
      remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer t0k" } },
      legacy: { type: "sse", url: "http://127.0.0.1:1/sse" },
    });
  });

  it("takes the environment from process.env by default", async () => {
    process.env.HEDDLE_MCP_TEST_VAR = "from-env";
    try {
      const file = writeConfig("env.json", { mcpServers: { s: { command: "x", args: ["${HEDDLE_MCP_TEST_VAR}"] } } });
      expect((await loadMcpConfig(file)).mcpServers.s).toEqual({ command: "x", args: ["from-env"] });
    } finally {
      delete process.env.HEDDLE_MCP_TEST_VAR;
    }
  });

  it("refuses a config that uses an unset variable, naming the variable, the server and the field", async () => {
    const file = writeConfig("missing.json", {
      mcpServers: { gh: { url: "https://api.example.com", headers: { Authorization: "Bearer ${GITHUB_TOKEN}" } } },
    });
    const error = await loadMcpConfig(file, { env: {} }).catch((e) => e);
    expect(error).toBeInstanceOf(McpConfigError);
    expect(isHeddleError(error, "config_invalid")).toBe(true);
    expect(error.message).toContain('GITHUB_TOKEN (server "gh", headers.Authorization)');
  });

  it("explains a file that is missing, not JSON, or not the mcpServers shape", async () => {
    await expect(loadMcpConfig(join(dir, "nope.json"))).rejects.toThrow(/Cannot read the MCP config/);
    await expect(loadMcpConfig(writeConfig("bad.json", "{ nope"))).rejects.toThrow(/not valid JSON/);
    await expect(loadMcpConfig(writeConfig("shape.json", { servers: {} }))).rejects.toThrow(/"mcpServers"/);
    await expect(loadMcpConfig(writeConfig("srv.json", { mcpServers: { s: { args: [] } } }))).rejects.toThrow(
      /MCP server "s".*command/,
    );
  });

  it("parseMcpConfig checks an object already in memory", () => {
    expect(parseMcpConfig({ mcpServers: { a: { command: "node" } } }, { env: {} })).toEqual({
      mcpServers: { a: { command: "node" } },
    });
  });
});
