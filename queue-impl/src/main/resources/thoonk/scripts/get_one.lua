-- Job Get of one id (get.lua without its loop, so the simulator runs it on its engine thread): pop the tail, or
-- take the id the caller's BRPOP popped (ARGV[2]), and claim it unless its item is gone or someone holds it.
-- KEYS[1] feed.ids, KEYS[2] feed.items, KEYS[3] feed.claimed; ARGV[1] now (ms, '' = TIME), ARGV[2] id or ''
-- Returns {now, id, item} when it claimed, {now, id} when it popped an id and gave it up, {now} when the list was
-- empty.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local id = ARGV[2]
if id == '' then id = redis.call('RPOP', KEYS[1]) end
if not id then return {now} end
if redis.call('HEXISTS', KEYS[2], id) == 0 or redis.call('ZSCORE', KEYS[3], id) then return {now, id} end
redis.call('ZADD', KEYS[3], now, id)
return {now, id, redis.call('HGET', KEYS[2], id)}
