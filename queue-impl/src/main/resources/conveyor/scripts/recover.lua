-- Lease recovery: every job whose lease expired (score <= now) goes back to the head of its queue, ENQUEUED, its
-- token deleted (its old owner is fenced off), a wake published; no retry is consumed. A record that is no job is
-- moved to the dead-letter list with its lease dropped, so it cannot fill every batch.
-- KEYS[1] conveyor:leases, KEYS[2] conveyor:dead-letters
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] at most this many, ARGV[4] the wake command
-- (PUBLISH or SPUBLISH)
-- Returns {requeued, expired leases seen}.
local t = now_ms(ARGV[2])
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t, 'LIMIT', 0, tonumber(ARGV[3]))
local requeued = 0
for _, uuid in ipairs(expired) do
  local job = ARGV[1] .. 'jobs:' .. uuid
  -- a migrating slot refuses a key not on this node: stop before this job's first write (the next round goes on)
  if refusal(job, job .. ':lease') then break end
  local record = redis.call('GET', job)
  if record then
    local fs = job_fields(record)
    local queue = fs and field(fs, 3)
    if queue ~= nil and queue ~= '' and refusal(ARGV[1] .. queue) then break end
    redis.call('ZREM', KEYS[1], uuid)
    redis.call('DEL', job .. ':lease')
    if queue == nil or queue == '' then
      redis.call('LPUSH', KEYS[2], record)
    else
      local bytes = rewritten(fs, nil, 0)
      redis.call('SET', job, bytes)
      redis.call('LPUSH', ARGV[1] .. queue, bytes)
      redis.call(ARGV[4], ARGV[1] .. 'conveyor:wake:' .. queue, queue)
      requeued = requeued + 1
    end
  end
end
return {requeued, #expired}
