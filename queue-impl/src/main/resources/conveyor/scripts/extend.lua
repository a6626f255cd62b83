-- Renews a lease for another lease period from now, if the caller still holds it.
-- KEYS[1] jobs:<uuid>:lease, KEYS[2] conveyor:leases; ARGV[1] uuid, ARGV[2] token, ARGV[3] now (ms, '' = TIME),
-- ARGV[4] lease (ms). Returns the new expiry in ms, or false when the lease is lost.
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return false end
local now
if ARGV[3] ~= '' then
  now = tonumber(ARGV[3])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local expires = now + tonumber(ARGV[4])
redis.call('ZADD', KEYS[2], 'XX', expires, ARGV[1])
return expires
