-- Job Put (normal: LPUSH, high priority: RPUSH), the contract's commands for each item, atomically.
-- KEYS[1] feed.ids, KEYS[2] feed.publishes, KEYS[3] feed.items, KEYS[4] feed.published
-- ARGV[1] now (ms, '' = TIME), ARGV[2] 'LPUSH' or 'RPUSH', then id, item pairs. Returns the time used.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
for i = 3, #ARGV, 2 do
  redis.call(ARGV[2], KEYS[1], ARGV[i])
  redis.call('INCR', KEYS[2])
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[4], now, ARGV[i])
end
return now
