-- Delete a task its caller owns (a template or an "all" task only with the bypass label). Deleting an owned task
-- first carries its Sync (the caller's, else its stored one) back to its origin template, and flips the "waiting"
-- gate label its "trigger" labels name in every gate template; a template whose labels are then all "deleted" emits
-- its task (unless Root suppresses it) and resets to "waiting" (Templates.afterDeletion). Then the wake channel, if a
-- task was emitted.
-- KEYS[1] all
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (PUBLISH or SPUBLISH), ARGV[4] worker, ARGV[5] retention
-- (ms), ARGV[6] id, ARGV[7] caller's worker label, ARGV[8] caller's cycles label, ARGV[9] bypass (1/0), ARGV[10] n,
-- then the caller's Sync as n key / value pairs
-- Returns {1} deleted, {0} no such task, {-2} never owned (needs bypass), {-1, stored fields...} not the owner.
local refused = migrating()
if refused then return refused end
local now = now_ms(ARGV[2])
local function clock() return now end
local emitted = false
local retention = tonumber(ARGV[5])
local id = ARGV[6]
local stored = read(id)
if not stored then return {0} end

local function by_number(a, b)
  return tonumber(a) < tonumber(b)
end

local function after_deletion(deleted, sync)
  local before, after, ids = {}, {}, {}
  local origin = deleted.core[ORIGIN]
  if origin and not is_empty(sync) then
    local t = read(origin)
    if t and is_template(t) then
      before[origin] = t
      local updated = copy(t)
      updated.sync = sync
      after[origin] = updated
      ids[#ids + 1] = origin
    end
  end
  for key, value in pairs(deleted.gate) do
    if value == 'trigger' then
      for _, tid in ipairs(redis.call('SMEMBERS', label_index('gate', key, 'waiting'))) do
        local current = after[tid]
        if not current then
          local t = read(tid)
          if t then
            before[tid] = t
            current = copy(t)
            ids[#ids + 1] = tid
          end
        end
        if current then
          current.gate[key] = 'deleted'
          after[tid] = current
        end
      end
    end
  end
  table.sort(ids, by_number)
  for _, tid in ipairs(ids) do
    local updated = after[tid]
    local fired = not is_empty(updated.gate)
    for _, v in pairs(updated.gate) do
      if v ~= 'deleted' then fired = false end
    end
    if fired then
      emitted = emit(tid, updated, clock, retention) ~= nil or emitted
      for k in pairs(updated.gate) do updated.gate[k] = 'waiting' end
    end
    write(tid, before[tid], updated)
  end
end

if is_template(stored) or method(stored) == 'all' then
  if ARGV[9] ~= '1' then return {-2} end
  remove(id, stored)
else
  local problem = owner_problem(stored, ARGV[4], ARGV[7], ARGV[8], now)
  if problem then
    table.insert(problem, 1, -1)
    return problem
  end
  local sync = {}
  for i = 11, 10 + 2 * tonumber(ARGV[10]), 2 do sync[ARGV[i]] = ARGV[i + 1] end
  if is_empty(sync) then sync = stored.sync end
  -- Removed first: the deleted task is gone when an emitted task's Root is looked for (Java passes it as "leaving").
  remove(id, stored)
  after_deletion(stored, sync)
end
-- Only an emission makes work a waiting runtime could take.
if emitted then wake() end
return {1}
