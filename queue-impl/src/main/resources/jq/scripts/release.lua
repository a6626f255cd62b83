-- Un-claim attempt a of job id, which never reached a worker (the push delivery could not connect): fenced like a
-- report (only the attempt still running), the job goes back to the ready set as it was before the claim, attempts
-- one less, its constraint slots and its rate-window entries given back.
-- KEYS[1] running, KEYS[2] ready
-- ARGV[1] key prefix, ARGV[2] id, ARGV[3] attempt
-- Returns 1 (released) or 0 (stale: that attempt is not running).
local prefix = ARGV[1]
local id = tonumber(ARGV[2])
local attempt = tonumber(ARGV[3])
local job = prefix .. 'job:' .. id
local refused = refusal(job)
if refused then return refused end
local f = redis.call('HMGET', job, 'state', 'attempts', 'priority', 'name', 'constraints')
if f[1] ~= 'running' or tonumber(f[2]) ~= attempt then return 0 end
local held = held_constraints(f[5])
-- every key written below, probed before the first write (a migrating slot refuses the whole release)
refused = refusal(prefix .. 'stats:' .. f[4])
if refused then return refused end
for _, c in ipairs(held) do
  refused = refusal(prefix .. 'constraint:' .. c .. ':running', prefix .. 'constraint:' .. c .. ':starts')
  if refused then return refused end
end
local m = member(id)
redis.call('ZREM', KEYS[1], m)
for _, c in ipairs(held) do
  redis.call('SREM', prefix .. 'constraint:' .. c .. ':running', id)
  redis.call('ZREM', prefix .. 'constraint:' .. c .. ':starts', id .. ':' .. attempt)
end
redis.call('HDEL', job, 'constraints', 'deadline', 'worker')
redis.call('HSET', job, 'state', 'queued', 'attempts', attempt - 1)
redis.call('ZADD', KEYS[2], f[3], m)
move_stat(prefix, f[4], 'running', 'queued')
return 1
