-- Ticker: for each due cron template the client read, emit its task (unless its Root exists) and move its ticks, if
-- the template's next tick is still the one the client read; else another ticker took that tick and it is skipped.
-- The client computes the new ticks with Cron.java (the @every calendar lives only there) at the time it read the
-- due templates, exactly as the WATCH/MULTI form does; the emitted task's retention starts at this script's time.
-- KEYS[1] cron, KEYS[2] seq, KEYS[3] all (declared for Cluster: the other keys share their hash tag)
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (PUBLISH or SPUBLISH), ARGV[4] retention (ms), then per
-- template in the order to emit: id, the next tick read (ms), the new tick-1, the new tick+1 (the README's format)
-- Returns how many tasks were emitted.
local refused = migrating()
if refused then return refused end
local time
local function now()
  if not time then time = now_ms(ARGV[2]) end
  return time
end
local retention = tonumber(ARGV[4])
local emitted = 0
for i = 5, #ARGV, 4 do
  local id = ARGV[i]
  local tick = redis.call('ZSCORE', KEYS[1], id)
  local template = tick and tonumber(tick) == tonumber(ARGV[i + 1]) and read(id)
  if template then
    update(id, template, 'cron', {['time.rescue.io/tick-1'] = ARGV[i + 2], [TICK_NEXT] = ARGV[i + 3]})
    place(id, template)
    if emit(id, template, now, retention) then emitted = emitted + 1 end
  end
end
if emitted > 0 then wake() end
return emitted
