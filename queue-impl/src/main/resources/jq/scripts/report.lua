-- Record n attempts' outcomes, each fenced by its attempt number (only the attempt still running may finish its
-- job; any other report is stale and changes nothing). A failure that may be retried waits out its backoff in the
-- delayed set; any other outcome ends the job (its finished set, its counters, its kept result).
-- KEYS[1] running, KEYS[2] delayed, KEYS[3] succeeded, KEYS[4] failed, KEYS[5] failures, KEYS[6] results
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] result retention (ms), ARGV[4] failures kept,
-- then 9 per report: id, attempt, kind ('s' success / 'f' failure), should_retry (0/1), reason, message ('' with
-- has_message 0 = none), has_message, the encoded outcome, backoff (ms) for this attempt
-- Returns one status per report: 1 accepted, 0 stale.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
local retention = tonumber(ARGV[3])
local kept = tonumber(ARGV[4])
-- every key the reports write, probed first (a job's hash, its counters, its kept result, the constraints it holds),
-- so a migrating slot refuses the batch before its first write
for i = 5, #ARGV, 9 do
  local id = tonumber(ARGV[i])
  local job = prefix .. 'job:' .. id
  local refused = refusal(job)
  if refused then return refused end
  local f = redis.call('HMGET', job, 'name', 'constraints')
  if f[1] then
    refused = refusal(prefix .. 'stats:' .. f[1], prefix .. 'result:' .. id)
    if refused then return refused end
    for _, c in ipairs(held_constraints(f[2])) do
      refused = refusal(prefix .. 'constraint:' .. c .. ':running')
      if refused then return refused end
    end
  end
end
local statuses = {}
for i = 5, #ARGV, 9 do
  local id = tonumber(ARGV[i])
  local attempt = tonumber(ARGV[i + 1])
  local job = prefix .. 'job:' .. id
  local f = redis.call('HMGET', job, 'state', 'attempts', 'name', 'max_retry', 'keep_result', 'constraints')
  if f[1] ~= 'running' or tonumber(f[2]) ~= attempt then
    statuses[#statuses + 1] = 0
  else
    local m = member(id)
    local name = f[3]
    redis.call('ZREM', KEYS[1], m)
    for _, c in ipairs(held_constraints(f[6])) do
      redis.call('SREM', prefix .. 'constraint:' .. c .. ':running', id)
    end
    redis.call('HDEL', job, 'constraints', 'deadline')
    local retried = false
    local failure = ARGV[i + 2] == 'f'
    if failure then
      local message = ARGV[i + 6] == '1' and mp_str(ARGV[i + 5]) or '\192'
      local record = '\134' .. mp_str('id') .. mp_uint(id) .. mp_str('name') .. mp_str(name)
        .. mp_str('attempt') .. mp_uint(attempt) .. mp_str('reason') .. mp_str(ARGV[i + 4])
        .. mp_str('message') .. message .. mp_str('at') .. mp_uint(t)
      redis.call('LPUSH', KEYS[5], record)
      redis.call('LTRIM', KEYS[5], 0, kept - 1)
      redis.call('HSET', job, 'last_message', ARGV[i + 6] == '1' and ARGV[i + 5] or 'null')
      if ARGV[i + 3] == '1' and attempt <= tonumber(f[4]) then
        local eligible = t + tonumber(ARGV[i + 8])
        redis.call('HSET', job, 'state', 'delayed', 'eligible_at', eligible)
        redis.call('ZADD', KEYS[2], eligible, m)
        move_stat(prefix, name, 'running', 'delayed')
        retried = true
      end
    end
    if not retried then
      local ending = failure and 'failed' or 'succeeded'
      redis.call('HSET', job, 'state', ending, 'finished_at', t)
      redis.call('ZADD', failure and KEYS[4] or KEYS[3], t, m)
      move_stat(prefix, name, 'running', ending)
      if f[5] == '1' then
        redis.call('SET', prefix .. 'result:' .. id, ARGV[i + 7])
        redis.call('ZADD', KEYS[6], t + retention, m)
      end
    end
    statuses[#statuses + 1] = 1
  end
end
return statuses
