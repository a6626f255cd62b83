-- Revoke every ownership whose expiry has passed (the task is placed again, unowned) and delete every addressed task
-- whose retention passed before anyone was addressed. Tells the wake channel when anything changed.
-- KEYS[1] owned, KEYS[2] retention
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (PUBLISH or SPUBLISH)
-- Returns how many tasks were revoked or deleted.
local refused = migrating()
if refused then return refused end
local now = now_ms(ARGV[2])
local changed = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)) do
  local t = read(id)
  if t then
    update(id, t, 'core', {[WORKER] = false, [EXPIRY] = false})
    redis.call('ZREM', KEYS[1], id)
    place(id, t)
    changed = changed + 1
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  local t = read(id)
  if t then
    remove(id, t)
    changed = changed + 1
  end
end
if changed > 0 then wake() end
return changed
