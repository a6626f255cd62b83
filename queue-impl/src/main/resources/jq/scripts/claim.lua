-- Claim up to n jobs: first every failed job whose backoff has passed rejoins the ready set (as promote does), then
-- the head of the ready set (smallest priority, ties by id) is dispatched, n times or until it is empty. When any
-- constraint is defined nothing is dispatched and {-1} comes back: admission then needs the MessagePack matchers,
-- which the client's optimistic claim evaluates (docs/contracts/jq.md).
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] running, KEYS[4] constraints
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] worker, ARGV[4] n
-- Returns {count, then 6 per job: id, attempt, name, argument, timeout_ms, deadline}.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t)) do
  local job = prefix .. 'job:' .. tonumber(m)
  -- a migrating slot refuses a key not on this node: stop before this job's first write (the next claim goes on)
  if refusal(job) then break end
  local f = redis.call('HMGET', job, 'priority', 'name')
  if f[2] and refusal(prefix .. 'stats:' .. f[2]) then break end
  redis.call('ZREM', KEYS[1], m)
  if f[1] then
    redis.call('ZADD', KEYS[2], f[1], m)
    redis.call('HSET', job, 'state', 'queued')
    move_stat(prefix, f[2], 'delayed', 'queued')
  end
end
if redis.call('HLEN', KEYS[4]) > 0 then
  return {-1}
end
local out = {0}
local n = tonumber(ARGV[4])
while out[1] < n do
  local head = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #head == 0 then break end
  local m = head[1]
  local id = tonumber(m)
  local job = prefix .. 'job:' .. id
  -- the head's keys are probed before it leaves the ready set: a migrating slot refuses before anything is written
  local refused = refusal(job)
  local f = not refused and redis.call('HMGET', job, 'state', 'attempts', 'timeout_ms', 'name', 'argument')
  refused = refused or (f[4] and refusal(prefix .. 'stats:' .. f[4]))
  if refused then
    -- nothing claimed: the client waits for the migration and tries again (promotions above stand: they are whole)
    if out[1] == 0 then return refused end
    break
  end
  redis.call('ZPOPMIN', KEYS[2])
  -- A member whose record is gone (trimmed) or not queued is stale bookkeeping: dropping it is what claim did.
  if f[1] == 'queued' then
    local attempt = tonumber(f[2]) + 1
    local deadline = t + tonumber(f[3])
    redis.call('ZADD', KEYS[3], deadline, m)
    redis.call('HSET', job, 'state', 'running', 'attempts', attempt, 'deadline', deadline, 'worker', ARGV[3],
      'constraints', '\144')
    move_stat(prefix, f[4], 'queued', 'running')
    out[1] = out[1] + 1
    out[#out + 1] = id
    out[#out + 1] = attempt
    out[#out + 1] = f[4]
    out[#out + 1] = f[5]
    out[#out + 1] = tonumber(f[3])
    out[#out + 1] = deadline
  end
end
return out
