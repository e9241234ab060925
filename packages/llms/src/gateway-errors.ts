import { HeddleError } from "@heddle/shared";

/** The codes a `GatewayError` carries. */
export type GatewayErrorCode =
  | "gateway_error"
  | "unknown_provider"
  | "unknown_model"
  | "missing_api_key"
  | "missing_base_url"
  | "invalid_provider_spec"
  | "vendor_sdk_missing";

/**
 * Thrown by the gateway for configuration mistakes; each names what was wrong and what would be right. Each
 * subclass has a stable `code`: `unknown_provider`, `unknown_model`, `missing_api_key`, `missing_base_url`,
 * `invalid_provider_spec`, `vendor_sdk_missing` (`gateway_error` for the base class). Arguments in the order of
 * `HeddleError`: the code, then the message.
 */
export class GatewayError extends HeddleError {
  declare readonly code: GatewayErrorCode;
  override name = "GatewayError";
  constructor(code: GatewayErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** No provider with this id. `knownProviders` lists the ids that exist. */
export class UnknownProviderError extends GatewayError {
  override name = "UnknownProviderError";
  constructor(
    readonly providerId: string,
    readonly knownProviders: string[],
  ) {
    super("unknown_provider", `Unknown provider "${providerId}". Known providers: ${knownProviders.join(", ")}.`);
  }
}

/** `getModelInfo` for a model the provider does not list. `knownModels` lists the ids it does. */
export class UnknownModelError extends GatewayError {
  override name = "UnknownModelError";
  constructor(
    readonly providerId: string,
    readonly modelId: string,
    readonly knownModels: string[],
  ) {
    super(
      "unknown_model",
      `Unknown model "${modelId}" for provider "${providerId}". ` +
        (knownModels.length > 0
          ? `Known models: ${knownModels.join(", ")}.`
          : "This provider has no model catalog; any model id the server accepts works with createAgentModel."),
    );
  }
}

/** No API key in the config or in the provider's environment variables. */
export class MissingApiKeyError extends GatewayError {
  override name = "MissingApiKeyError";
  constructor(
    readonly providerId: string,
    readonly envVars: string[],
  ) {
    super(
      "missing_api_key",
      `No API key for provider "${providerId}": pass apiKey` +
        (envVars.length > 0 ? ` or set ${envVars.join(" or ")}.` : "."),
    );
  }
}

/** A provider without a default base URL (`openai-compatible`) used without one. */
export class MissingBaseUrlError extends GatewayError {
  override name = "MissingBaseUrlError";
  constructor(readonly providerId: string) {
    super(
      "missing_base_url",
      `Provider "${providerId}" has no default base URL: pass baseUrl (the server's OpenAI-compatible root, ending in /v1, e.g. http://localhost:8000/v1).`,
    );
  }
}

/** A provider spec given to `registerProvider` is not usable. */
export class InvalidProviderSpecError extends GatewayError {
  override name = "InvalidProviderSpecError";
  constructor(message: string) {
    super("invalid_provider_spec", message);
  }
}
