/**
 * The rule this file keeps: every Redis key of a team mailbox is `<keyPrefix>:team:<teamId>:inbox:<agentId>` (its
 * read markers the same plus `:read`), with `%` and `:` in each id escaped as `%25` and `%3A`. No escaped id holds a
 * `:`, so each key splits into the same ids it was made from: two distinct (team, agent) pairs never share a key,
 * and an inbox is never another agent's read markers. Ids without `%` or `:` are unchanged, so inboxes written
 * before the escaping stay readable. `keyPrefix` is the operator's and is taken as it is.
 */

/** One id as a key segment: `%` → `%25`, `:` → `%3A`. */
export function keySegment(id: string): string {
  return id.replace(/[%:]/g, (char) => (char === "%" ? "%25" : "%3A"));
}

/** The stream that holds the inbox of `agentId` in `teamId`. */
export function inboxKey(prefix: string, teamId: string, agentId: string): string {
  return `${prefix}:team:${keySegment(teamId)}:inbox:${keySegment(agentId)}`;
}

/** The hash of read markers (message id → read time) of that inbox. */
export function readsKey(prefix: string, teamId: string, agentId: string): string {
  return `${inboxKey(prefix, teamId, agentId)}:read`;
}
