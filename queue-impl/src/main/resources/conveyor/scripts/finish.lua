-- The end of a job's run for good (completed, or failed with no retry left), fenced by the token, for any job:
-- it leaves the lease set with its final record; its buffered children are placed (as with a dead parent); with no
-- child unfinished it is final at once (tree.lua's finalize) and its parent is settled, at most ARGV[8] parents up
-- the tree in this call; otherwise it waits for its children (conveyor:waiting). Finisher.java's steps, in one call.
-- KEYS[1] jobs:<uuid>:lease, KEYS[2] conveyor:leases, KEYS[3] jobs:<uuid>, KEYS[4] jobs:<uuid>:children,
-- KEYS[5] jobs:<uuid>:active, KEYS[6] jobs:<uuid>:onComplete, KEYS[7] conveyor:waiting, KEYS[8] done or failed,
-- KEYS[9] conveyor:settling
-- ARGV[1] uuid, ARGV[2] token, ARGV[3] the final record, ARGV[4] key prefix, ARGV[5] now (ms, '' = TIME),
-- ARGV[6] the wake command (PUBLISH or SPUBLISH), ARGV[7] the job's parent uuid or '', ARGV[8] at most this many
-- parents settled
-- Leaves `finish_reply`: {0} when the lease is not the caller's (nothing written), {1} when ended, {1, child, parent}
-- when the budget ran out before the climb ended (the client settles on from there: settle.lua); or, while the slot
-- migrates away, the refusal of the probe (nothing written, decision 0041); or an error of a job that does not decode.
local function finish()
  use_keys(ARGV[4], ARGV[6])
  local migrating = refusal(prefix .. 'conveyor:migration-probe')
  if migrating then return migrating end
  if redis.call('GET', KEYS[1]) ~= ARGV[2] then return {0} end
  local t = now_ms(ARGV[5])
  local uuid = ARGV[1]
  local children = redis.call('LRANGE', KEYS[4], 0, -1)
  local decoded, bad = decoded_all(children)
  if bad then return bad end
  local active_children = redis.call('EXISTS', KEYS[5]) == 1 -- Redis keeps no empty set
  redis.call('ZREM', KEYS[2], uuid)
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[3], ARGV[3])
  place_all(children, decoded, t)
  if #children > 0 or active_children then
    redis.call('DEL', KEYS[4])
    redis.call('SADD', KEYS[7], uuid)
    return {1}
  end
  local parent
  parent, bad = finalize(uuid, ARGV[3], ARGV[7], KEYS[8] == prefix .. 'conveyor:done', t)
  if bad then return bad end
  if parent == nil then return {1} end
  local left = settle(uuid, parent, tonumber(ARGV[8]), t)
  if left.err then return left end
  if #left == 0 then return {1} end
  return {1, left[1], left[2]}
end
local finish_reply = finish()
