-- Enqueue n jobs: each takes the next id, its hash (state queued, attempts 0), its ready entry (score = priority)
-- and its counters, all in one step, so no crash can leave an id without its job or a job outside the ready set.
-- KEYS[1] seq, KEYS[2] ready, KEYS[3] names
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), then 6 per job: name, argument, priority, max_retry,
-- keep_result (0/1), timeout_ms
-- Returns the ids, in the order given.
local prefix = ARGV[1]
-- every key the batch writes, probed first (the ids INCR will give are the counter's next ones: nothing else runs
-- meanwhile), so a migrating slot refuses the batch before its first write
local next_id = tonumber(redis.call('GET', KEYS[1]) or '0')
for i = 3, #ARGV, 6 do
  next_id = next_id + 1
  local refused = refusal(prefix .. 'job:' .. next_id, prefix .. 'stats:' .. ARGV[i])
  if refused then return refused end
end
local t = now_ms(ARGV[2])
local ids = {}
for i = 3, #ARGV, 6 do
  local name = ARGV[i]
  local id = redis.call('INCR', KEYS[1])
  redis.call('HSET', prefix .. 'job:' .. id, 'name', name, 'argument', ARGV[i + 1], 'priority', ARGV[i + 2],
    'max_retry', ARGV[i + 3], 'keep_result', ARGV[i + 4], 'timeout_ms', ARGV[i + 5], 'state', 'queued',
    'attempts', '0', 'enqueued_at', t)
  redis.call('ZADD', KEYS[2], ARGV[i + 2], member(id))
  redis.call('SADD', KEYS[3], name)
  redis.call('HINCRBY', prefix .. 'stats:' .. name, 'queued', 1)
  ids[#ids + 1] = id
end
return ids
