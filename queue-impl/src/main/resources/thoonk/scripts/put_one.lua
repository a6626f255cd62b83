-- Job Put of one item (put.lua without its loop, so the simulator runs it on its engine thread).
-- KEYS[1] feed.ids, KEYS[2] feed.publishes, KEYS[3] feed.items, KEYS[4] feed.published
-- ARGV[1] now (ms, '' = TIME), ARGV[2] 'LPUSH' or 'RPUSH', ARGV[3] id, ARGV[4] item. Returns the time used.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call(ARGV[2], KEYS[1], ARGV[3])
redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[4], now, ARGV[3])
return now
