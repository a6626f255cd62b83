-- The spec's Add for n jobs, in order, all or nothing when a uuid is taken: a job whose parent is alive (has not
-- finished running) goes to the parent's children list; else one whose predecessor is not final (not in done or
-- failed) waits in the predecessor's onComplete list; else it is placed (tree.lua's place). A dead parent (the
-- caller's flag, or a parent record COMPLETED or FAILED) means the predecessor is not consulted (the spec's order).
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] the wake command (PUBLISH or SPUBLISH), ARGV[4] '1' when
-- the caller says the parent is dead, then per job seven: uuid, record, queue, run-at (epoch ms, a fraction allowed)
-- or '', the scheduled score (run-at in epoch seconds, as the client writes it), parent uuid or '', predecessor uuid
-- or ''.
-- Returns false, or the first uuid already taken (nothing written); or, while the slot migrates away, the refusal
-- of the probe (nothing written: the client waits and adds again, decision 0041).
use_keys(ARGV[1], ARGV[3])
local migrating = refusal(prefix .. 'conveyor:migration-probe')
if migrating then return migrating end
for i = 5, #ARGV, 7 do
  if redis.call('EXISTS', job_key(ARGV[i])) == 1 then return ARGV[i] end
end
local t = now_ms(ARGV[2])
local caller_says_dead = ARGV[4] == '1'

-- Whether a parent's record says it finished running (COMPLETED or FAILED); nil when the record is no job.
local function finished_running(record)
  if not record then return false end
  local fs = job_fields(record)
  if fs == nil then return nil end
  local status = field(fs, 12)
  return status == 2 or status == 3
end

local function final(uuid)
  return redis.call('SISMEMBER', prefix .. 'conveyor:done', uuid) == 1
    or redis.call('SISMEMBER', prefix .. 'conveyor:failed', uuid) == 1
end

for i = 5, #ARGV, 7 do
  local uuid, record, queue, run_at_ms, score = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local parent, predecessor = ARGV[i + 5], ARGV[i + 6]
  local parent_dead = caller_says_dead
  if parent ~= '' and not parent_dead then
    parent_dead = finished_running(redis.call('GET', job_key(parent)))
    -- as JobWire.decode stops the WATCH/MULTI form: nothing written for this job (the jobs before it stay added)
    if parent_dead == nil then return redis.error_reply('conveyor: the record of parent ' .. parent .. ' is no job') end
  end
  redis.call('SET', job_key(uuid), record)
  if parent ~= '' and not parent_dead then
    redis.call('RPUSH', job_key(parent, ':children'), record)
  elseif predecessor ~= '' and not parent_dead and not final(predecessor) then
    redis.call('RPUSH', job_key(predecessor, ':onComplete'), record)
  else
    place(record, uuid, queue, parent, run_at_ms ~= '' and tonumber(run_at_ms) or nil, score, t)
  end
end
return false
