-- Lease recovery: every job whose lease expired (score <= now) goes back to the head of its queue, ENQUEUED, its
-- token deleted (its old owner is fenced off), a wake published; no retry is consumed. A record that is no job is
-- moved to the dead-letter list with its lease dropped, so it cannot fill every batch.
-- KEYS[1] conveyor:leases, KEYS[2] conveyor:dead-letters
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] at most this many, ARGV[4] the wake command
-- (PUBLISH or SPUBLISH)
-- Returns {requeued, expired leases seen}; or, when a migrating slot refused a probe before anything was written,
-- that refusal (the client waits for the migration and runs recovery again: decision 0023).
local t = now_ms(ARGV[2])
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t, 'LIMIT', 0, tonumber(ARGV[3]))
local requeued = 0
local wrote = false
for _, uuid in ipairs(expired) do
  local job = ARGV[1] .. 'jobs:' .. uuid
  -- a migrating slot refuses a key not on this node: stop before this job's first write
  local refused = refusal(job, job .. ':lease')
  local record = not refused and redis.call('GET', job)
  local fs = record and job_fields(record)
  local queue = fs and field(fs, 3)
  if not refused and type(queue) == 'string' and queue ~= '' then refused = refusal(ARGV[1] .. queue) end
  if refused then
    if not wrote then return refused end
    break -- what was done so far stands; the next round goes on
  end
  if record then
    wrote = true
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
