-- Job Get without the contract's window: pop the tail and claim it in one step, up to n ids (claims.lua first). Or,
-- with ARGV[3] set, claim that id (popped by the caller's BRPOP) under the same checks.
-- KEYS[1] feed.ids, KEYS[2] feed.items, KEYS[3] feed.claimed
-- ARGV[1] now (ms, '' = TIME), ARGV[2] n, ARGV[3] an id already popped, or ''
-- Returns {now, id, item, id, item, ...}.
--
-- One RPOP of n ids (the ids one RPOP each would pop), then the reads, then the claims: a pop per id that emptied
-- feed.ids made the next pop fail on a migrating master after claims nobody was told about.
local now = now_from(ARGV[1])
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
add_claims(KEYS[3], pick_claims(ids, KEYS[2], KEYS[3], now, out))
return out
