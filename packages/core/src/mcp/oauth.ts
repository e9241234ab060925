// OAuth 2.1 for HTTP servers on the SDK's auth support (discovery, dynamic or pre-registered clients, client ID
// metadata documents, PKCE, token refresh, client credentials). Heddle supplies the provider: tokens and clients
// live in a host-supplied store, and the browser step goes through the host's `onAuthorizationUrl`.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthConfig } from "./config.js";
import { McpAuthError } from "./errors.js";

/** What is kept per server between runs: its tokens and the client registered for it. */
export interface McpOAuthRecord {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
}

/**
 * Where OAuth tokens and registered clients are kept, keyed by `"<server name> <server url>"`. The default keeps
 * them in memory (sign in again after a restart); `FileMcpOAuthStore` keeps them in a file only its owner can read.
 */
export interface McpOAuthStore {
  load(key: string): McpOAuthRecord | undefined | Promise<McpOAuthRecord | undefined>;
  save(key: string, record: McpOAuthRecord): void | Promise<void>;
}

/** Keeps OAuth records in memory, for the life of the object. */
export class MemoryMcpOAuthStore implements McpOAuthStore {
  readonly #records = new Map<string, McpOAuthRecord>();
  load(key: string): McpOAuthRecord | undefined {
    const record = this.#records.get(key);
    return record && structuredClone(record);
  }
  save(key: string, record: McpOAuthRecord): void {
    this.#records.set(key, structuredClone(record));
  }
}

/** Keeps OAuth records in one JSON file, written atomically with mode 0600 (tokens are secrets). */
export class FileMcpOAuthStore implements McpOAuthStore {
  readonly path: string;
  #queue: Promise<unknown> = Promise.resolve();
  constructor(options: { path: string }) {
    this.path = options.path;
  }
  async load(key: string): Promise<McpOAuthRecord | undefined> {
    return (await this.#read())[key];
  }
  save(key: string, record: McpOAuthRecord): Promise<void> {
    // One write at a time, each on the latest file: two servers saving at once both keep their records.
    const write = this.#queue.then(async () => {
      const all = await this.#read();
      all[key] = record;
      await mkdir(path.dirname(this.path), { recursive: true, mode: 0o700 });
      const temp = `${this.path}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      await rename(temp, this.path);
    });
    this.#queue = write.catch(() => {});
    return write;
  }
  async #read(): Promise<{ [key: string]: McpOAuthRecord }> {
    try {
      const parsed = JSON.parse(await readFile(this.path, "utf8")) as unknown;
      return typeof parsed === "object" && parsed !== null ? (parsed as { [key: string]: McpOAuthRecord }) : {};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
  }
}

/**
 * The host's browser step: show or open `url` (the authorization server's sign-in page), wait for the browser to
 * come back to the redirect URL, and resolve with that full callback URL (`...?code=...&state=...`).
 */
export type McpAuthorizationUrlHandler = (
  url: URL,
  context: { server: string; redirectUrl: string },
) => Promise<string>;

/** Where the authorization server sends the browser back when the host sets no `oauthRedirectUrl`. */
export const DEFAULT_OAUTH_REDIRECT_URL = "http://localhost:33418/callback";

export interface McpOAuthProviderOptions {
  server: string;
  url: string;
  config: McpOAuthConfig;
  store: McpOAuthStore;
  redirectUrl: string;
  clientName: string;
  onAuthorizationUrl?: McpAuthorizationUrlHandler;
}

/** An `OAuthClientProvider` over a host store; one per server and connect. Internal to `connectMcpServers`. */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  readonly key: string;
  addClientAuthentication?: AddClientAuthentication;
  prepareTokenRequest?: (scope?: string) => URLSearchParams;
  readonly #options: McpOAuthProviderOptions;
  #record: McpOAuthRecord | undefined;
  #state: string | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** The host's answer to the last authorization URL: the callback URL, once the person signed in. */
  #callback: Promise<string> | undefined;

  constructor(options: McpOAuthProviderOptions) {
    this.#options = options;
    this.key = `${options.server} ${options.url}`;
    this.clientMetadataUrl = options.config.clientMetadataUrl;
    const { config } = options;
    if (config.grantType === "client_credentials") {
      // Machine-to-machine: no browser, a token straight from the token endpoint.
      this.prepareTokenRequest = (scope) => {
        const params = new URLSearchParams({ grant_type: "client_credentials" });
        const wanted = config.scope ?? scope;
        if (wanted) params.set("scope", wanted);
        return params;
      };
      if (config.privateKey !== undefined && config.clientId !== undefined) {
        this.addClientAuthentication = createPrivateKeyJwtAuth({
          issuer: config.clientId,
          subject: config.clientId,
          privateKey: config.privateKey,
          alg: config.signingAlgorithm ?? "RS256",
        });
      }
    }
  }

  get redirectUrl(): string | undefined {
    return this.#options.config.grantType === "client_credentials" ? undefined : this.#options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { config } = this.#options;
    const credentials = config.grantType === "client_credentials";
    return {
      client_name: this.#options.clientName,
      redirect_uris: credentials ? [] : [this.#options.redirectUrl],
      grant_types: credentials ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: credentials ? [] : ["code"],
      // The authorization server picks how the client authenticates (it says so in the registration response).
      ...(config.privateKey !== undefined && { token_endpoint_auth_method: "private_key_jwt" }),
      ...(config.scope !== undefined && { scope: config.scope }),
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString("base64url");
    return this.#state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.#options.config;
    const stored = (await this.#load()).client;
    // A pre-registered client comes from the config; the store only adds what the SDK stamped on it (its issuer).
    if (clientId !== undefined) {
      if (stored?.client_id === clientId) return stored;
      return { client_id: clientId, ...(clientSecret !== undefined && { client_secret: clientSecret }) };
    }
    return stored;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.#update((record) => {
      record.client = client;
    });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.#load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#update((record) => {
      record.tokens = tokens;
    });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    const handler = this.#options.onAuthorizationUrl;
    if (!handler) {
      throw new McpAuthError(
        this.#options.server,
        `MCP server "${this.#options.server}" needs you to sign in, and this host gives no onAuthorizationUrl to open the page`,
      );
    }
    this.#callback = Promise.resolve().then(() =>
      handler(authorizationUrl, { server: this.#options.server, redirectUrl: this.#options.redirectUrl }),
    );
    // Awaited by `authorizationCode()`; a rejection before then must not be reported as unhandled.
    this.#callback.catch(() => {});
  }

  /** True once the SDK handed an authorization URL to the host in this connect. */
  get awaitingAuthorization(): boolean {
    return this.#callback !== undefined;
  }

  /** Waits for the host's callback URL and returns its code; a wrong `state` or an `error=` is refused. */
  async authorizationCode(): Promise<string> {
    const pending = this.#callback;
    if (!pending) throw new McpAuthError(this.#options.server, "no authorization is in progress");
    this.#callback = undefined;
    const callback = new URL(await pending, this.#options.redirectUrl);
    const error = callback.searchParams.get("error");
    if (error) {
      const description = callback.searchParams.get("error_description");
      throw new McpAuthError(
        this.#options.server,
        `authorization was refused: ${error}${description ? ` (${description})` : ""}`,
      );
    }
    if (this.#state !== undefined && callback.searchParams.get("state") !== this.#state) {
      throw new McpAuthError(
        this.#options.server,
        "the authorization callback's state does not match the request (a forged or stale callback)",
      );
    }
    const code = callback.searchParams.get("code");
    if (!code) throw new McpAuthError(this.#options.server, "the authorization callback URL has no code");
    return code;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new McpAuthError(this.#options.server, "no PKCE code verifier was saved");
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier" || scope === "all") this.#verifier = undefined;
    if (scope === "discovery" || scope === "all") this.#discovery = undefined;
    if (scope === "verifier" || scope === "discovery") return;
    await this.#update((record) => {
      if (scope === "all" || scope === "tokens") delete record.tokens;
      if (scope === "all" || scope === "client") delete record.client;
    });
  }

  async #load(): Promise<McpOAuthRecord> {
    this.#record ??= (await this.#options.store.load(this.key)) ?? {};
    return this.#record;
  }

  async #update(change: (record: McpOAuthRecord) => void): Promise<void> {
    const record = await this.#load();
    change(record);
    await this.#options.store.save(this.key, record);
  }
}
