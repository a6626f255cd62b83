-- Job Get without the contract's window: pop the tail and claim it in one step, up to n ids. An id whose item was
-- retracted, or that someone holds already, is dropped as the WATCH form drops it. Or, with ARGV[3] set, claim
-- that id (popped by the caller's BRPOP) under the same checks.
-- KEYS[1] feed.ids, KEYS[2] feed.items, KEYS[3] feed.claimed
-- ARGV[1] now (ms, '' = TIME), ARGV[2] n, ARGV[3] an id already popped, or ''
-- Returns {now, id, item, id, item, ...}.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local out = {now}
local popped = ARGV[3]
for _ = 1, tonumber(ARGV[2]) do
  local id = popped
  if id == '' then id = redis.call('RPOP', KEYS[1]) end
  if not id then break end
  if redis.call('HEXISTS', KEYS[2], id) == 1 and not redis.call('ZSCORE', KEYS[3], id) then
    redis.call('ZADD', KEYS[3], now, id)
    out[#out + 1] = id
    out[#out + 1] = redis.call('HGET', KEYS[2], id)
  end
  if popped ~= '' then break end
end
return out
