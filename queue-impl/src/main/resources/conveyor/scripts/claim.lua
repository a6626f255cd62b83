-- Claim up to n jobs from the tail of a queue (FIFO): for each, RPOP, its record RUNNING with started_at = now, its
-- fencing token, its lease in conveyor:leases; bytes that are no job go to the dead-letter list instead.
-- KEYS[ko+1] queue, KEYS[ko+2] conveyor:leases, KEYS[ko+3] conveyor:dead-letters
-- ARGV[ao+1] key prefix, ARGV[ao+2] now (ms, '' = TIME), ARGV[ao+3] lease (ms), ARGV[ao+4...] one token per job
-- Returns {expiry ms, {running record, ...}}.
local t = now_ms(ARGV[ao + 2])
local expires = t + tonumber(ARGV[ao + 3])
local claimed = {}
-- One probe of a key nothing writes, before the first write: refused exactly while this node migrates the slot away
-- (see refusal in proto.lua). Probing the popped job's own keys instead would change nothing there, since a queued
-- job never has a lease key and a migrating master refuses a missing one; on a stable slot no key is refused, so the
-- jobs need no probe each (decision 0041).
local migrating = refusal(ARGV[ao + 1] .. 'conveyor:migration-probe')
if migrating then
  -- a claim on its own wrote nothing: the client waits for the migration and tries again; after a completion
  -- (complete-and-claim) the caller gets the completion with no claim
  if ko == 0 then return migrating end
  return {expires, claimed}
end
local next_token = ao + 4
while next_token <= #ARGV do
  local bytes = redis.call('RPOP', KEYS[ko + 1])
  if not bytes then break end
  local fs = job_fields(bytes)
  local uuid = fs and field(fs, 1)
  if uuid == nil or uuid == '' then
    redis.call('LPUSH', KEYS[ko + 3], bytes)
  else
    local job = ARGV[ao + 1] .. 'jobs:' .. uuid
    local running = rewritten(fs, t, 1)
    redis.call('SET', job, running)
    redis.call('SET', job .. ':lease', ARGV[next_token])
    redis.call('ZADD', KEYS[ko + 2], expires, uuid)
    claimed[#claimed + 1] = running
    next_token = next_token + 1
  end
end
return {expires, claimed}
