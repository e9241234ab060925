export {
  classifyUnknownError,
  isAbortError,
  isNetworkError,
  kindForStatus,
  looksLikeContextOverflow,
  modelError,
  retryAfterMsFromHeaders,
} from "./errors.js";
export type {
  FamilyCallContext,
  ProviderConfig,
  ProviderSpec,
  RetryPolicy,
  WireFamily,
  WireFamilyId,
} from "./types.js";
