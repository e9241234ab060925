/**
 * The rule this file keeps: every change to a Redis roster is one Lua script, so it is atomic on the server. A lease
 * is a string key holding its worker's id that Redis itself expires (`SET NX PX`, `PEXPIRE`): no clock but the
 * server's decides when a lease is over. Only the worker whose id the lease key holds renews it, releases it, or
 * writes its teammate's state; a stopped teammate's lease key is deleted and never set again.
 */

// `keySegment` of redis-keys.ts in Lua: `%` → `%25`, `:` → `%3A`. The roster tests run ids with both through it.
const ESCAPE = `local function esc(id)
  return (string.gsub(id, '[%%:]', function(c) if c == '%' then return '%25' end return '%3A' end))
end
`;

/** KEYS roster, state, usage, seq; ARGV agentId, record JSON, now. 0 when the id is recorded, else its order. */
export const CREATE = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local seq = redis.call('INCR', KEYS[4])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode({seq = seq, state = 'waiting', updatedAt = tonumber(ARGV[3])}))
return seq
`;

/**
 * KEYS roster, state, usage; ARGV leasePrefix, agentIds... (none: all). For each recorded one, six values: id,
 * record, state, usage, lease holder ('' when none), lease ms left (PTTL).
 */
export const SNAPSHOT = `${ESCAPE}
local ids = {}
if #ARGV > 1 then for i = 2, #ARGV do ids[#ids + 1] = ARGV[i] end else ids = redis.call('HKEYS', KEYS[1]) end
local out = {}
for _, id in ipairs(ids) do
  local record = redis.call('HGET', KEYS[1], id)
  if record then
    local lease = ARGV[1] .. esc(id)
    out[#out + 1] = id
    out[#out + 1] = record
    out[#out + 1] = redis.call('HGET', KEYS[2], id) or '{}'
    out[#out + 1] = redis.call('HGET', KEYS[3], id) or '{}'
    out[#out + 1] = redis.call('GET', lease) or ''
    out[#out + 1] = redis.call('PTTL', lease)
  end
end
return out
`;

/**
 * KEYS state; ARGV leasePrefix, workerId, leaseMs, max, now. Leases, oldest first, up to max teammates that are not
 * stopped and whose lease key does not exist. Returns pairs: id, the worker that held it last ('' when none).
 */
export const ACQUIRE = `${ESCAPE}
local all = redis.call('HGETALL', KEYS[1])
local free = {}
for i = 1, #all, 2 do
  local st = cjson.decode(all[i + 1])
  if st.state ~= 'stopped' then free[#free + 1] = {id = all[i], st = st} end
end
table.sort(free, function(a, b) return a.st.seq < b.st.seq end)
local out = {}
local max = tonumber(ARGV[4])
for _, item in ipairs(free) do
  if #out >= 2 * max then break end
  if redis.call('SET', ARGV[1] .. esc(item.id), ARGV[2], 'NX', 'PX', ARGV[3]) then
    local previous = item.st.lastWorkerId or ''
    item.st.lastWorkerId = ARGV[2]
    item.st.state = 'running'
    item.st.updatedAt = tonumber(ARGV[5])
    redis.call('HSET', KEYS[1], item.id, cjson.encode(item.st))
    out[#out + 1] = item.id
    out[#out + 1] = previous
  end
end
return out
`;

/** KEYS the lease keys; ARGV workerId, leaseMs. The indexes (1-based) of the leases this worker held and extended. */
export const RENEW = `
local out = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    out[#out + 1] = i
  end
end
return out
`;

/** KEYS lease; ARGV workerId. 1 when this worker held the lease, now deleted. */
export const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

/** KEYS lease, state; ARGV workerId, agentId, state, now. 1 when written (this worker holds the lease). */
export const SET_STATE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local raw = redis.call('HGET', KEYS[2], ARGV[2])
if not raw then return 0 end
local st = cjson.decode(raw)
if st.state == 'stopped' then return 0 end
st.state = ARGV[3]
st.updatedAt = tonumber(ARGV[4])
redis.call('HSET', KEYS[2], ARGV[2], cjson.encode(st))
return 1
`;

/**
 * KEYS lease, state; ARGV agentId, reason, detail ('' none), workerId ('' the lead: any holder), now. 1 when it
 * stopped now; its lease key is deleted.
 */
export const STOP = `
local raw = redis.call('HGET', KEYS[2], ARGV[1])
if not raw then return 0 end
local st = cjson.decode(raw)
if st.state == 'stopped' then return 0 end
if ARGV[4] ~= '' and redis.call('GET', KEYS[1]) ~= ARGV[4] then return 0 end
st.state = 'stopped'
st.stopReason = ARGV[2]
if ARGV[3] ~= '' then st.stopDetail = ARGV[3] end
st.updatedAt = tonumber(ARGV[5])
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(st))
redis.call('DEL', KEYS[1])
return 1
`;

/** KEYS usage, roster; ARGV agentId, then the six usage numbers in `USAGE_ORDER`. Adds one turn. */
export const ADD_USAGE = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
local u = cjson.decode(redis.call('HGET', KEYS[1], ARGV[1]) or '{}')
u.turns = (u.turns or 0) + 1
local names = {'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens', 'costUsd'}
for i, name in ipairs(names) do u[name] = (u[name] or 0) + tonumber(ARGV[i + 1]) end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(u))
return 1
`;

export const USAGE_ORDER = [
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "reasoningTokens",
  "costUsd",
] as const;

/** KEYS tasks, taskSeq; ARGV the task as JSON (its id is set here). Returns the stored JSON. */
export const ADD_TASK = `
local seq = redis.call('INCR', KEYS[2])
local task = cjson.decode(ARGV[1])
task.id = 'task-' .. seq
task.seq = seq
local json = cjson.encode(task)
redis.call('HSET', KEYS[1], task.id, json)
return json
`;

/** KEYS tasks; ARGV taskId, the JSON read before, the new JSON. 1 when the task was still as read (now replaced). */
export const REPLACE_TASK = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;
