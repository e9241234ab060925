import type {
  AgentModel,
  AgentModelEvent,
  AgentModelRequest,
  Logger,
  ModelCallOptions,
  ModelInfo,
} from "@heddle/shared";
import { consoleLogger } from "@heddle/shared";
import { catalogModel, catalogModels, costOfUsage } from "./catalog/index.js";
import {
  InvalidProviderSpecError,
  MissingApiKeyError,
  MissingBaseUrlError,
  UnknownModelError,
  UnknownProviderError,
} from "./gateway-errors.js";
import { prepareMessagesForTarget } from "./handoff.js";
import { lazyModule } from "./lazy-module.js";
import { BUILTIN_PROVIDERS } from "./providers.js";
import { withRetries } from "./retry.js";
import { redactEvent, sanitizeUsage, secretsOf } from "./sanitize.js";
import type {
  FamilyCallContext,
  ProviderConfig,
  ProviderSpec,
  RetryPolicy,
  StreamLimits,
  WireFamily,
  WireFamilyId,
} from "./types.js";

/** Loads each wire family on its first request, so importing the gateway loads no vendor client. */
const FAMILY_LOADERS: Record<WireFamilyId, () => Promise<{ family: WireFamily }>> = {
  "openai-chat": () => import("./families/openai-chat/index.js"),
  anthropic: () => import("./families/anthropic/index.js"),
  openai: () => import("./families/openai-responses/index.js"),
  gemini: () => import("./families/gemini/index.js"),
};

/**
 * Each family's vendor client module, for `warmUp`. The family imports the same module on its first request; once
 * loaded here, that import is served from the module cache.
 */
const VENDOR_LOADERS: Record<WireFamilyId, () => Promise<unknown>> = {
  "openai-chat": lazyModule(() => import("./vendor/openai.js")),
  anthropic: lazyModule(() => import("./vendor/anthropic.js")),
  openai: lazyModule(() => import("./vendor/openai.js")),
  gemini: lazyModule(() => import("@google/genai")),
};

const WIRE_FAMILIES = Object.keys(FAMILY_LOADERS) as WireFamilyId[];

/** Window assumed for a model the catalog does not know. */
export const UNKNOWN_MODEL_DEFAULTS = { contextWindow: 128_000, maxOutputTokens: 8_192 } as const;

export interface GatewayOptions {
  providers?: ProviderConfig[];
  retry?: RetryPolicy;
  /** Where keys are read from; defaults to `process.env` when there is one (never in a browser). */
  env?: Record<string, string | undefined>;
  /**
   * Where the gateway's notices go (a model not in the catalog, a config for an unknown provider); defaults to
   * `consoleLogger`. Each notice is given once per logger and provider+model, however many gateways and agents
   * share the logger.
   */
  logger?: Logger;
  /** @deprecated Use `logger`. Called with each notice instead of `logger.warn`. */
  onWarning?: (message: string) => void;
}

// Notices already given, per logger (or `onWarning` function): an app that builds a gateway per agent would
// otherwise print "not in the catalog" once per agent.
const noticesGiven = new WeakMap<object, Set<string>>();

function noticeOnce(sink: object, key: string, give: () => void): void {
  let given = noticesGiven.get(sink);
  if (!given) {
    given = new Set();
    noticesGiven.set(sink, given);
  }
  if (given.has(key)) return;
  given.add(key);
  give();
}

export interface CreateAgentModelOptions {
  providerId: string;
  modelId: string;
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  /** Default request options for this model; a request's own options win. */
  options?: ModelCallOptions;
  /** Idle timeout and response-size cap for this model's calls, over the provider config's and the defaults. */
  limits?: StreamLimits;
}

export interface Gateway {
  createAgentModel(options: CreateAgentModelOptions): AgentModel;
  listProviders(): ProviderSpec[];
  listModels(providerId?: string): ModelInfo[];
  getModelInfo(providerId: string, modelId: string): ModelInfo;
  registerProvider(spec: ProviderSpec): void;
  /**
   * Loads the wire family and vendor client module (`openai`, `@anthropic-ai/sdk`, `@google/genai`) of each given
   * provider now, so the first request pays no import. Resolves once they are loaded; rejects with
   * `UnknownProviderError` (loading nothing) when an id is unknown. Modules load once per process, however many
   * gateways or calls ask; a failed load is tried again by the next call.
   */
  warmUp(providerIds: string | readonly string[]): Promise<void>;
}

function defaultEnv(): Record<string, string | undefined> {
  // Guarded so the gateway loads in a browser, where there is no `process`.
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env ?? {};
}

/** Request options: provider defaults, then the model's, then the request's; headers and vendor options merged. */
export function mergeOptions(...layers: Array<ModelCallOptions | undefined>): ModelCallOptions | undefined {
  let merged: ModelCallOptions | undefined;
  for (const layer of layers) {
    if (!layer) continue;
    if (!merged) {
      merged = { ...layer };
      continue;
    }
    const headers = merged.headers || layer.headers ? { ...merged.headers, ...layer.headers } : undefined;
    let providerOptions = merged.providerOptions;
    if (layer.providerOptions) {
      providerOptions = { ...providerOptions };
      for (const [family, values] of Object.entries(layer.providerOptions))
        providerOptions[family] = { ...providerOptions[family], ...values };
    }
    merged = { ...merged, ...layer };
    if (headers) merged.headers = headers;
    if (providerOptions) merged.providerOptions = providerOptions;
  }
  return merged;
}

function validateSpec(spec: ProviderSpec): void {
  if (!spec || typeof spec.id !== "string" || spec.id.trim() === "")
    throw new InvalidProviderSpecError("registerProvider: `id` must be a non-empty string.");
  if (!WIRE_FAMILIES.includes(spec.family))
    throw new InvalidProviderSpecError(
      `registerProvider("${spec.id}"): unknown family "${String(spec.family)}"; use one of ${WIRE_FAMILIES.join(", ")}.`,
    );
}

/** A gateway over the built-in providers plus any registered ones. */
/** Where a family's vendor client goes when no base URL is set (the OpenAI families' presets all set one). */
const VENDOR_ENDPOINTS: { readonly [family: string]: string } = {
  anthropic: "https://api.anthropic.com",
  gemini: "https://generativelanguage.googleapis.com",
  openai: "https://api.openai.com/v1",
};

export function createGateway(options: GatewayOptions = {}): Gateway {
  const specs = new Map<string, ProviderSpec>(BUILTIN_PROVIDERS.map((spec) => [spec.id, spec]));
  const configs = new Map<string, ProviderConfig>(
    (options.providers ?? []).map((config) => [config.providerId, config]),
  );
  const env = options.env ?? defaultEnv();
  const logger = options.logger ?? consoleLogger;
  const sink: object = options.onWarning ?? logger;
  const warn = (key: string, message: string) =>
    noticeOnce(sink, key, () => (options.onWarning ? options.onWarning(message) : logger.warn(message)));
  const families = new Map<WireFamilyId, Promise<WireFamily>>();

  const specFor = (providerId: string): ProviderSpec => {
    const spec = specs.get(providerId);
    if (!spec) throw new UnknownProviderError(providerId, [...specs.keys()]);
    return spec;
  };
  // Not an error: the provider may be registered later. A typo still gets a word.
  for (const providerId of configs.keys())
    if (!specs.has(providerId))
      warn(
        `provider-config:${providerId}`,
        `@heddle/llms: configuration given for unknown provider "${providerId}"; register it with registerProvider.`,
      );

  const modelsOf = (spec: ProviderSpec): ModelInfo[] => {
    const own = (spec.models ?? []).map((model) => ({ ...model, provider: spec.id }));
    const ids = new Set(own.map((model) => model.id));
    return [...own, ...catalogModels(spec.id).filter((model) => !ids.has(model.id))];
  };
  const findModel = (spec: ProviderSpec, modelId: string): ModelInfo | undefined => {
    const own = spec.models?.find((model) => model.id === modelId);
    return own ? { ...own, provider: spec.id } : catalogModel(spec.id, modelId);
  };
  const familyOfProvider = (providerId: string) => specs.get(providerId)?.family;

  const loadFamily = (id: WireFamilyId): Promise<WireFamily> => {
    let loaded = families.get(id);
    if (!loaded) {
      loaded = FAMILY_LOADERS[id]().then((module) => module.family);
      // A failed load is retried on the next request rather than cached forever.
      loaded.catch(() => families.delete(id));
      families.set(id, loaded);
    }
    return loaded;
  };

  function createAgentModel(request: CreateAgentModelOptions): AgentModel {
    const spec = specFor(request.providerId);
    const config = configs.get(spec.id);
    const baseUrl = request.baseUrl ?? config?.baseUrl ?? spec.baseUrl;
    if (spec.requiresBaseUrl && !baseUrl) throw new MissingBaseUrlError(spec.id);
    const envVars = spec.apiKeyEnv ?? [];
    const apiKey =
      request.apiKey ??
      config?.apiKey ??
      envVars.map((name) => env[name]).find((value) => value !== undefined && value !== "");
    if (!apiKey && spec.requiresApiKey !== false) throw new MissingApiKeyError(spec.id, envVars);
    if (typeof request.modelId !== "string" || request.modelId === "")
      throw new UnknownModelError(
        spec.id,
        String(request.modelId),
        modelsOf(spec).map((model) => model.id),
      );

    let info = findModel(spec, request.modelId);
    if (!info) {
      warn(
        `unknown-model:${spec.id}/${request.modelId}`,
        `@heddle/llms: model "${request.modelId}" is not in the catalog of provider "${spec.id}"; ` +
          `assuming a ${UNKNOWN_MODEL_DEFAULTS.contextWindow}-token window and no prices (cost will be 0).`,
      );
      info = {
        provider: spec.id,
        id: request.modelId,
        ...UNKNOWN_MODEL_DEFAULTS,
        supports: { tools: true, reasoning: false, images: false },
      };
    }
    const headers =
      spec.headers || config?.headers || request.headers
        ? { ...spec.headers, ...config?.headers, ...request.headers }
        : undefined;
    const defaults = mergeOptions(config?.options, request.options);
    const modelInfo = info;
    const secrets = secretsOf(apiKey);
    const limits = config?.limits || request.limits ? { ...config?.limits, ...request.limits } : undefined;
    const policy: RetryPolicy = options.retry ?? {};

    const endpoint = baseUrl ?? VENDOR_ENDPOINTS[spec.family];
    return {
      provider: spec.id,
      modelId: request.modelId,
      info: modelInfo,
      ...(endpoint !== undefined && { baseUrl: endpoint }),
      stream(modelRequest: AgentModelRequest): AsyncIterable<AgentModelEvent> {
        const signal = modelRequest.signal ?? new AbortController().signal;
        // Prepared on the first attempt and reused by retries; a failure here becomes a classified finish.
        let prepared: { family: WireFamily; ctx: FamilyCallContext } | undefined;
        const prepare = async () => {
          const family = await loadFamily(spec.family);
          const messages = prepareMessagesForTarget(modelRequest.messages, {
            family: spec.family,
            providerId: spec.id,
            ...(spec.toolCallIds && { toolCallIds: spec.toolCallIds }),
            familyOfProvider,
          });
          const familyRequest: AgentModelRequest = { ...modelRequest, messages, tools: modelRequest.tools ?? [] };
          const merged = mergeOptions(defaults, modelRequest.options);
          if (merged) familyRequest.options = merged;
          const ctx: FamilyCallContext = {
            providerId: spec.id,
            modelId: request.modelId,
            ...(apiKey && { apiKey }),
            ...(baseUrl && { baseUrl }),
            ...(headers && { headers }),
            info: modelInfo,
            request: familyRequest,
            signal,
            ...(limits && { limits }),
          };
          return { family, ctx };
        };
        return withRetries(
          async () => {
            prepared ??= await prepare();
            return prepared.family.streamOnce(prepared.ctx);
          },
          {
            policy,
            signal,
            providerId: spec.id,
            modelId: request.modelId,
            map: (event) => {
              if (event.type === "usage") {
                // A hostile or broken server's counts never reach costs and budgets as NaN.
                const usage = sanitizeUsage(event.usage);
                return { type: "usage", usage: { ...usage, costUsd: costOfUsage(modelInfo, usage) } };
              }
              // The key never shows in an error the gateway reports, even when the server echoes it.
              return event.type === "finish" || event.type === "retry" ? redactEvent(event, secrets) : event;
            },
          },
        );
      },
    };
  }

  return {
    createAgentModel,
    listProviders: () => [...specs.values()].map((spec) => ({ ...spec })),
    listModels(providerId) {
      if (providerId !== undefined) return modelsOf(specFor(providerId));
      return [...specs.values()].flatMap(modelsOf);
    },
    getModelInfo(providerId, modelId) {
      const spec = specFor(providerId);
      const info = findModel(spec, modelId);
      if (!info)
        throw new UnknownModelError(
          providerId,
          modelId,
          modelsOf(spec).map((model) => model.id),
        );
      return info;
    },
    registerProvider(spec) {
      validateSpec(spec);
      specs.set(spec.id, { ...spec });
    },
    async warmUp(providerIds) {
      const ids: readonly string[] = typeof providerIds === "string" ? [providerIds] : providerIds;
      // Every id is checked before anything loads.
      const wanted = new Set(ids.map((providerId) => specFor(providerId).family));
      await Promise.all([...wanted].flatMap((family) => [loadFamily(family), VENDOR_LOADERS[family]()]));
    },
  };
}
