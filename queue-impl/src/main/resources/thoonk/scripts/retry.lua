-- Job Retry: a stalled job back in line, its publish time now.
-- KEYS[1] feed.stalled, KEYS[2] feed.ids, KEYS[3] feed.published; ARGV[1] id, ARGV[2] now (ms, '' = TIME).
-- Returns 1, or 0 when the id is not stalled (nothing written).
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then return 0 end
local now
if ARGV[2] ~= '' then
  now = tonumber(ARGV[2])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], now, ARGV[1])
return 1
