-- Claim up to n jobs from the tail of a queue (FIFO): for each, after probing its keys (see refusal in proto.lua), RPOP, its record RUNNING with started_at = now,
-- its fencing token, its lease in conveyor:leases; bytes that are no job go to the dead-letter list instead.
-- KEYS[ko+1] queue, KEYS[ko+2] conveyor:leases, KEYS[ko+3] conveyor:dead-letters
-- ARGV[ao+1] key prefix, ARGV[ao+2] now (ms, '' = TIME), ARGV[ao+3] lease (ms), ARGV[ao+4...] one token per job
-- Returns {expiry ms, {running record, ...}}.
local t = now_ms(ARGV[ao + 2])
local expires = t + tonumber(ARGV[ao + 3])
local claimed = {}
local next_token = ao + 4
while next_token <= #ARGV do
  local bytes = redis.call('LINDEX', KEYS[ko + 1], -1)
  if not bytes then break end
  local fs = job_fields(bytes)
  local uuid = fs and field(fs, 1)
  if uuid == nil or uuid == '' then
    redis.call('RPOP', KEYS[ko + 1])
    redis.call('LPUSH', KEYS[ko + 3], bytes)
  else
    local job = ARGV[ao + 1] .. 'jobs:' .. uuid
    -- the job's keys are probed before it leaves the queue: a migrating slot refuses before anything is written
    local refused = refusal(job, job .. ':lease')
    if refused then
      -- refused before anything was written (a claim on its own): the client waits for the migration and tries
      -- again; after jobs claimed, or a completion (complete-and-claim), it gets what was done
      if #claimed == 0 and ko == 0 then return refused end
      break
    end
    redis.call('RPOP', KEYS[ko + 1])
    local running = rewritten(fs, t, 1)
    redis.call('SET', job, running)
    redis.call('SET', job .. ':lease', ARGV[next_token])
    redis.call('ZADD', KEYS[ko + 2], expires, uuid)
    claimed[#claimed + 1] = running
    next_token = next_token + 1
  end
end
return {expires, claimed}
