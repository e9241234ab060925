export { DEFAULT_STREAM_LIMITS, type StreamLimits } from "./call-link.js";
export { type CatalogEntry, catalogModel, catalogModels, costOfUsage } from "./catalog/index.js";
export {
  classifyUnknownError,
  isAbortError,
  isNetworkError,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
  retryAfterMsFromHeaders,
} from "./errors.js";
export {
  type CreateAgentModelOptions,
  createGateway,
  type Gateway,
  type GatewayOptions,
  mergeOptions,
  UNKNOWN_MODEL_DEFAULTS,
} from "./gateway.js";
export {
  GatewayError,
  InvalidProviderSpecError,
  MissingApiKeyError,
  MissingBaseUrlError,
  UnknownModelError,
  UnknownProviderError,
} from "./gateway-errors.js";
export { type HandoffTarget, prepareMessagesForTarget } from "./handoff.js";
export { MissingVendorSdkError, VENDOR_SDKS } from "./lazy-module.js";
export { BUILTIN_PROVIDERS } from "./providers.js";
export { DEFAULT_RETRY_POLICY, retryDelayMs, withRetries } from "./retry.js";
export type {
  FamilyCallContext,
  ProviderConfig,
  ProviderSpec,
  RetryPolicy,
  ToolCallIdRule,
  WireFamily,
  WireFamilyId,
} from "./types.js";
