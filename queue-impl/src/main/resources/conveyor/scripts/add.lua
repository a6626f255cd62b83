-- Adds n jobs that have neither parent nor predecessor (the spec's steps 4-6, for each): all or nothing when a
-- uuid is taken. A job due after now goes to scheduled (score in epoch seconds), every other one to its queue
-- with a wake.
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] the wake command (PUBLISH or SPUBLISH), then per job five: uuid, record, queue, run-at (epoch ms, a
-- fraction allowed) or '', and the scheduled score (run-at in epoch seconds, as the client writes it).
-- Returns false, or the first uuid already taken (nothing written).
for i = 4, #ARGV, 5 do
  if redis.call('EXISTS', ARGV[1] .. 'jobs:' .. ARGV[i]) == 1 then return ARGV[i] end
end
local t = now_ms(ARGV[2])
for i = 4, #ARGV, 5 do
  local uuid, record, queue, run_at = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  redis.call('SET', ARGV[1] .. 'jobs:' .. uuid, record)
  if run_at ~= '' and tonumber(run_at) > t then
    redis.call('ZADD', ARGV[1] .. 'scheduled', ARGV[i + 4], record)
  else
    redis.call('LPUSH', ARGV[1] .. queue, record)
    redis.call(ARGV[3], ARGV[1] .. 'conveyor:wake:' .. queue, queue)
  end
end
return false
