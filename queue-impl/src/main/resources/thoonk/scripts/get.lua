-- Job Get without the contract's window: pop the tail and claim it in one step, up to n ids. An id whose item was
-- retracted, or that someone holds already, is dropped as the WATCH form drops it. Or, with ARGV[3] set, claim
-- that id (popped by the caller's BRPOP) under the same checks.
-- KEYS[1] feed.ids, KEYS[2] feed.items, KEYS[3] feed.claimed
-- ARGV[1] now (ms, '' = TIME), ARGV[2] n, ARGV[3] an id already popped, or ''
-- Returns {now, id, item, id, item, ...}.
--
-- One RPOP of n ids (the ids one RPOP each would pop), then the reads, then the claims: no command meets a key an
-- earlier command of the script emptied. On the master of a migrating slot an emptied key is a missing key, which the
-- cluster refuses to a script wherever it meets it, keeping what was written: a pop per id that emptied feed.ids
-- made the next pop fail after claims nobody was told about (decision 0041).
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local out = {now}
local ids
if ARGV[3] ~= '' then
  ids = {ARGV[3]}
else
  local n = tonumber(ARGV[2])
  if n < 1 then return out end
  ids = redis.call('RPOP', KEYS[1], n)
  if not ids then return out end
end
local taken, claims = {}, {}
for _, id in ipairs(ids) do
  -- HGET answers false exactly when HEXISTS answers 0
  local item = redis.call('HGET', KEYS[2], id)
  if item and not taken[id] and not redis.call('ZSCORE', KEYS[3], id) then
    taken[id] = true
    claims[#claims + 1] = now
    claims[#claims + 1] = id
    out[#out + 1] = id
    out[#out + 1] = item
  end
end
-- ZADD only adds (it never empties feed.claimed), so chunks keep unpack within Lua's stack for any n
for first = 1, #claims, 400 do
  redis.call('ZADD', KEYS[3], unpack(claims, first, math.min(first + 399, #claims)))
end
return out
