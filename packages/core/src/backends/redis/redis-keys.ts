/**
 * The rule this file keeps: every Redis key of a team mailbox is `<keyPrefix>:team:<teamId>:inbox:<agentId>` (its
 * read markers the same plus `:read`), with `%` and `:` in each id escaped as `%25` and `%3A`. No escaped id holds a
 * `:`, so each key splits into the same ids it was made from: two distinct (team, agent) pairs never share a key,
 * and an inbox is never another agent's read markers. Ids without `%` or `:` are unchanged, so inboxes written
 * before the escaping stay readable. `keyPrefix` is the operator's and is taken as it is. A team's roster keys are
 * `<keyPrefix>:team:<teamId>:roster[:state|:usage|:seq]`, `:tasks[:seq]` and `:lease:<agentId>`: their third
 * segment is never `inbox`, so they never meet a mailbox key.
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

/** The hashes and counters of a team's roster: `<keyPrefix>:team:<teamId>:roster` and `:roster:<part>`. */
export function rosterKeys(prefix: string, teamId: string) {
  const base = `${prefix}:team:${keySegment(teamId)}`;
  return {
    /** agent id → its record (spec, first task, lead, creation time), as JSON. */
    roster: `${base}:roster`,
    /** agent id → its state (order, state, stop reason, last worker), as JSON. */
    state: `${base}:roster:state`,
    /** agent id → its usage, as JSON. */
    usage: `${base}:roster:usage`,
    /** The counter that orders teammates. */
    seq: `${base}:roster:seq`,
    /** The lease keys' common start: the lease of agent `a` is this plus `keySegment(a)`. */
    leasePrefix: `${base}:lease:`,
    /** task id → task, as JSON. */
    tasks: `${base}:tasks`,
    /** The counter that numbers tasks. */
    taskSeq: `${base}:tasks:seq`,
  };
}

/** The lease of `agentId` in `teamId`: a string key holding its worker's id, which Redis expires. */
export function leaseKey(prefix: string, teamId: string, agentId: string): string {
  return `${rosterKeys(prefix, teamId).leasePrefix}${keySegment(agentId)}`;
}
