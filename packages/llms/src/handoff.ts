import type { AgentMessage, ContentPart, ProviderMetadata, ReasoningPart } from "@heddle/shared";
import { BUILTIN_PROVIDER_FAMILIES, BUILTIN_PROVIDERS } from "./providers.js";
import type { ToolCallIdRule, WireFamilyId } from "./types.js";

/** Where a transcript is about to be sent. */
export interface HandoffTarget {
  family: WireFamilyId;
  /** The provider; a built-in provider's own tool-call id rule applies when `toolCallIds` is not given. */
  providerId?: string;
  /** The provider's own tool-call id rule (`ProviderSpec.toolCallIds`), when stricter than the family's. */
  toolCallIds?: ToolCallIdRule;
  /** The family of a provider id found on a message's `model`; defaults to the built-in providers. */
  familyOfProvider?: (providerId: string) => WireFamilyId | undefined;
}

/** A tool-call id rule: what is valid as is, and how to make a valid id from any string (`salt` varies on a clash). */
interface IdRule {
  valid(id: string): boolean;
  make(id: string, salt: number): string;
}

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

// Limits from the vendors' validation errors: Anthropic's `tool_use.id` pattern, OpenAI's 40-character cap on
// `tool_calls[].id` / `call_id`, and Mistral's "must be a-z, A-Z, 0-9, with a length of 9".
const FAMILY_ID_RULES: Partial<Record<WireFamilyId, IdRule>> = {
  anthropic: {
    valid: (id) => ANTHROPIC_ID.test(id),
    make: (id, salt) => `${id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 54)}_${shortHash(id, salt)}`,
  },
  openai: {
    valid: (id) => id.length > 0 && id.length <= 40,
    make: (id, salt) => `${id.slice(0, 30)}_${shortHash(id, salt)}`,
  },
  "openai-chat": {
    valid: (id) => id.length > 0 && id.length <= 40,
    make: (id, salt) => `${id.slice(0, 30)}_${shortHash(id, salt)}`,
  },
};

/** Provider rules, by `ProviderSpec.toolCallIds`. */
const PROVIDER_ID_RULES: Record<ToolCallIdRule, IdRule> = {
  "nine-alphanumeric": { valid: (id) => MISTRAL_ID.test(id), make: (id, salt) => nineChars(id, salt) },
};

const BUILTIN_ID_RULES: Readonly<Record<string, ToolCallIdRule | undefined>> = Object.fromEntries(
  BUILTIN_PROVIDERS.map((spec) => [spec.id, spec.toolCallIds]),
);

/** FNV-1a, base 36: the same id always maps to the same replacement, so requests stay byte-stable for caching. */
function shortHash(text: string, salt = 0): string {
  let hash = 0x811c9dc5 ^ salt;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36).padStart(7, "0").slice(0, 9);
}

/** A longer hash for Mistral's exactly-9 alphanumerics (two rounds so collisions are rarer). */
function nineChars(text: string, salt: number): string {
  return (shortHash(text, salt) + shortHash(text, salt + 0x9e3779b9)).slice(0, 9);
}

function ruleFor(target: HandoffTarget): IdRule | undefined {
  const own = target.toolCallIds ?? (target.providerId ? BUILTIN_ID_RULES[target.providerId] : undefined);
  return own ? PROVIDER_ID_RULES[own] : FAMILY_ID_RULES[target.family];
}

/** The family a reasoning part belongs to, or undefined when nothing says. */
function reasoningFamily(
  part: ReasoningPart,
  message: AgentMessage,
  target: WireFamilyId,
  familyOf: (id: string) => WireFamilyId | undefined,
): string | undefined {
  const keys = part.providerMetadata ? Object.keys(part.providerMetadata) : [];
  if (keys.includes(target)) return target;
  if (keys.length > 0) return keys[0];
  return message.model ? familyOf(message.model.provider) : undefined;
}

function ownMetadata(metadata: ProviderMetadata | undefined, family: string): ProviderMetadata | undefined {
  if (!metadata) return undefined;
  const own = metadata[family];
  return own ? { [family]: own } : undefined;
}

function withMetadata<T extends { providerMetadata?: ProviderMetadata }>(part: T, family: string): T {
  if (!part.providerMetadata) return part;
  const own = ownMetadata(part.providerMetadata, family);
  const keys = Object.keys(part.providerMetadata);
  if (own && keys.length === 1) return part;
  const { providerMetadata: _dropped, ...rest } = part;
  return (own ? { ...rest, providerMetadata: own } : rest) as T;
}

/**
 * Makes a neutral transcript valid for another wire family, without touching the input:
 * - reasoning produced by another family becomes `<thinking>…</thinking>` text (redacted reasoning is dropped), so
 *   signatures are only ever sent back to the vendor that made them;
 * - provider metadata of other families is stripped from every part;
 * - tool-call ids that break the target's limits are rewritten, the same way in calls and results.
 * Messages that need no change are returned as the same objects, and the input array itself when none changes.
 */
export function prepareMessagesForTarget(messages: AgentMessage[], target: HandoffTarget): AgentMessage[] {
  const familyOf = target.familyOfProvider ?? ((id: string) => BUILTIN_PROVIDER_FAMILIES[id]);
  const rule = ruleFor(target);
  const idMap = new Map<string, string>();
  // The ids already valid, so a rewritten one never collides with them; gathered only once an id needs rewriting.
  let used: Set<string> | undefined;
  const mapId = (id: string): string => {
    if (!rule || rule.valid(id)) return id;
    const known = idMap.get(id);
    if (known) return known;
    if (!used) {
      used = new Set<string>();
      for (const message of messages)
        for (const part of message.content)
          if ((part.type === "tool-call" || part.type === "tool-result") && rule.valid(part.toolCallId))
            used.add(part.toolCallId);
    }
    let next = "";
    for (let salt = 0; salt < 100; salt++) {
      next = rule.make(id, salt);
      if (!used.has(next)) break;
    }
    idMap.set(id, next);
    used.add(next);
    return next;
  };
  // Copied only from the first message that changes: on a transcript already valid for the target (every turn of
  // a single-vendor run) the input array itself comes back, and nothing is allocated per message.
  let out: AgentMessage[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as AgentMessage;
    let content: ContentPart[] | undefined;
    for (let at = 0; at < message.content.length; at++) {
      const part = message.content[at] as ContentPart;
      const next = convertPart(part, message);
      if (next !== part && !content) content = message.content.slice(0, at);
      if (content && next) content.push(next);
    }
    if (content && !out) out = messages.slice(0, index);
    if (out) out.push(content ? { ...message, content } : message);
  }
  return out ?? messages;

  function convertPart(part: ContentPart, message: AgentMessage): ContentPart | undefined {
    switch (part.type) {
      case "reasoning": {
        const origin = reasoningFamily(part, message, target.family, familyOf);
        if (origin === undefined || origin === target.family) return withMetadata(part, target.family);
        if (part.redacted || !part.text) return undefined;
        return { type: "text", text: `<thinking>\n${part.text}\n</thinking>` };
      }
      case "tool-call": {
        const id = mapId(part.toolCallId);
        const cleaned = withMetadata(part, target.family);
        return id === part.toolCallId ? cleaned : { ...cleaned, toolCallId: id };
      }
      case "tool-result": {
        const id = mapId(part.toolCallId);
        return id === part.toolCallId ? part : { ...part, toolCallId: id };
      }
      default:
        return part;
    }
  }
}
