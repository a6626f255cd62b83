-- Settles parents up the tree from a child that left its parent (tree.lua's settle), at most ARGV[4] of them: the
-- rest of a climb that finish.lua's budget cut short, or an entry of conveyor:settling that a completer left when it
-- died (recovery). Given no parent, the child's record names it; a child with no record or no parent just leaves
-- the settling set.
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] the wake command (PUBLISH or SPUBLISH), ARGV[4] at most
-- this many parents, ARGV[5] the child, ARGV[6] its parent or ''
-- Returns {} when the climb ended, else {child, parent} to settle next; or, while the slot migrates away, the
-- refusal of the probe (nothing written, decision 0041).
use_keys(ARGV[1], ARGV[3])
local migrating = refusal(prefix .. 'conveyor:migration-probe')
if migrating then return migrating end
local t = now_ms(ARGV[2])
local child, parent = ARGV[5], ARGV[6]
if parent == '' then
  local record = redis.call('GET', job_key(child))
  local fs = record and job_fields(record)
  parent = fs and field(fs, 6)
  if parent == nil or parent == '' then
    redis.call('SREM', prefix .. 'conveyor:settling', child)
    return {}
  end
end
return settle(child, parent, tonumber(ARGV[4]), t)
