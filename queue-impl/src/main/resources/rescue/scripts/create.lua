-- Create n tasks (or templates), each prepared by the client (TaskRules: Core cleared, cron ticks set), in order:
-- each takes the next object id unless its Root matches a task (an earlier one of the batch included), is stored
-- with its indexes and placed where it is found. Then the wake channel is told once, if any was created.
-- KEYS[1] seq, KEYS[2] all (declared for Cluster: the other keys share their hash tag)
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (PUBLISH or SPUBLISH), ARGV[4] retention (ms), then per task:
-- n, then n field / value pairs of its hash
-- Returns one id per task, 0 where Root suppressed it.
local refused = migrating()
if refused then return refused end
-- Only addressed tasks (retention) need the time: plain ones are created without reading TIME.
local time
local function now()
  if not time then time = now_ms(ARGV[2]) end
  return time
end
local retention = tonumber(ARGV[4])
local ids = {}
local created = false
local i = 5
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  local id = insert_new(decode(ARGV, i + 1, i + 2 * n), now, retention)
  ids[#ids + 1] = id and tonumber(id) or 0
  created = created or id ~= nil
  i = i + 1 + 2 * n
end
if created then wake() end
return ids
