-- Renew the caller's ownership for another lease from now.
-- KEYS[1] owned
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (unused: extending makes no work), ARGV[4] worker, ARGV[5]
-- lease (ms), ARGV[6] id, ARGV[7] the caller's worker label, ARGV[8] the caller's cycles label
-- Returns {1, renewed fields...}, {0} when there is no such task, {-1, stored fields...} when not the owner.
local refused = migrating()
if refused then return refused end
local now = now_ms(ARGV[2])
local id = ARGV[6]
local stored = read(id)
if not stored then return {0} end
local problem = owner_problem(stored, ARGV[4], ARGV[7], ARGV[8], now)
if problem then
  table.insert(problem, 1, -1)
  return problem
end
local expiry = now + tonumber(ARGV[5])
update(id, stored, 'core', {[EXPIRY] = format_time(expiry)})
redis.call('ZADD', KEYS[1], expiry, id)
local out = flatten(stored)
table.insert(out, 1, 1)
return out
