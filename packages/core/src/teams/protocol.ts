/**
 * The team control protocol: two self-closing tags a message's text may carry, so a control survives any
 * transport (a mailbox row, a tool argument, a model's own reply) and a model can read it as plain text.
 *
 *   <shutdown_request from="lead" reason="task done"/>
 *   <shutdown_approved from="worker-1"/>
 */

/** The control kinds of the protocol. */
export type TeamControlKind = "shutdown_request" | "shutdown_approved";

/** A parsed control tag. */
export interface TeamControlMessage {
  kind: TeamControlKind;
  from: string;
  reason?: string;
}

const ESCAPES: { [char: string]: string } = { "&": "&amp;", '"': "&quot;", "<": "&lt;", ">": "&gt;", "'": "&apos;" };
const UNESCAPES: { [entity: string]: string } = Object.fromEntries(
  Object.entries(ESCAPES).map(([char, entity]) => [entity, char]),
);

/** Escapes a value for a double-quoted XML attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&"<>']/g, (char) => ESCAPES[char]!);
}

function unescapeAttribute(value: string): string {
  return value.replace(/&(?:amp|quot|lt|gt|apos);/g, (entity) => UNESCAPES[entity]!);
}

/** `<shutdown_request from="lead" reason="task done"/>`. */
export function formatShutdownRequest(from: string, reason?: string): string {
  const why = reason !== undefined && reason !== "" ? ` reason="${escapeAttribute(reason)}"` : "";
  return `<shutdown_request from="${escapeAttribute(from)}"${why}/>`;
}

/** `<shutdown_approved from="worker-1"/>`. */
export function formatShutdownApproved(from: string): string {
  return `<shutdown_approved from="${escapeAttribute(from)}"/>`;
}

// A control tag anywhere in the text (a model may wrap it in prose); attributes are double-quoted.
const CONTROL_TAG = /<(shutdown_request|shutdown_approved)((?:\s+[A-Za-z_][\w-]*="[^"<>]*")*)\s*\/>/;
const ATTRIBUTE = /([A-Za-z_][\w-]*)="([^"<>]*)"/g;

/** The first control tag in `text`, or `undefined` when there is none (or it has no `from`). */
export function parseTeamControlMessage(text: string): TeamControlMessage | undefined {
  if (typeof text !== "string") return undefined;
  const match = CONTROL_TAG.exec(text);
  if (!match) return undefined;
  const attributes: { [name: string]: string } = {};
  for (const [, name, value] of match[2]!.matchAll(ATTRIBUTE)) attributes[name!] = unescapeAttribute(value!);
  const from = attributes.from;
  if (!from) return undefined;
  const kind = match[1] as TeamControlKind;
  return {
    kind,
    from,
    ...(kind === "shutdown_request" && attributes.reason !== undefined && { reason: attributes.reason }),
  };
}
