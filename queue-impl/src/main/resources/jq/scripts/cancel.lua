-- Cancel job id if it has not finished: wherever it is (ready, delayed, running) it ends as failed, reason
-- "cancelled", no retry; a running attempt's constraint slots are freed at once (its late report is then stale);
-- a keep_result job keeps the cancellation as its result. A finished job is left as it is.
-- KEYS[1] ready, KEYS[2] delayed, KEYS[3] running, KEYS[4] failed, KEYS[5] results
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] id, ARGV[4] result retention (ms)
-- Returns {} when there is no such job, else {state afterwards, 1 cancelled here / 0 already finished}.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
local id = tonumber(ARGV[3])
local job = prefix .. 'job:' .. id
local refused = refusal(job)
if refused then return refused end
local f = redis.call('HMGET', job, 'state', 'name', 'keep_result', 'constraints')
if not f[1] then return {} end
if f[1] == 'succeeded' or f[1] == 'failed' then return {f[1], 0} end
local held = f[1] == 'running' and held_constraints(f[4]) or {}
-- every key written below, probed before the first write
refused = refusal(prefix .. 'stats:' .. f[2], prefix .. 'result:' .. id)
if refused then return refused end
for _, c in ipairs(held) do
  refused = refusal(prefix .. 'constraint:' .. c .. ':running')
  if refused then return refused end
end
local m = member(id)
if f[1] == 'queued' then
  redis.call('ZREM', KEYS[1], m)
elseif f[1] == 'delayed' then
  redis.call('ZREM', KEYS[2], m)
else
  redis.call('ZREM', KEYS[3], m)
  for _, c in ipairs(held) do redis.call('SREM', prefix .. 'constraint:' .. c .. ':running', id) end
  redis.call('HDEL', job, 'constraints', 'deadline')
end
redis.call('HSET', job, 'last_message', 'cancelled', 'state', 'failed', 'finished_at', t)
redis.call('ZADD', KEYS[4], t, m)
move_stat(prefix, f[2], f[1], 'failed')
if f[3] == '1' then
  -- the outcome object the optimistic cancel keeps (Msgpack.map order: type, reason, finished_at, should_retry,
  -- error, message)
  local outcome = '\134' .. mp_str('type') .. mp_str('failure') .. mp_str('reason') .. mp_str('cancelled')
    .. mp_str('finished_at') .. mp_str(iso_instant(t)) .. mp_str('should_retry') .. '\194'
    .. mp_str('error') .. '\192' .. mp_str('message') .. mp_str('cancelled')
  redis.call('SET', prefix .. 'result:' .. id, outcome)
  redis.call('ZADD', KEYS[5], t + tonumber(ARGV[4]), m)
end
return {'failed', 1}
