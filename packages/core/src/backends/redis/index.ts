// The Redis team mailbox and roster. `ioredis` loads when one connects from a URL (./redis-connect.ts), not when
// this file is imported.
export { type RedisClientLike, RedisTeamMailbox, type RedisTeamMailboxOptions } from "./redis-mailbox.js";
export { type RedisRosterClientLike, RedisTeamRoster, type RedisTeamRosterOptions } from "./redis-roster.js";
