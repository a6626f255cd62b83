-- Shared by finish.lua, get.lua and finish_get.lua (Job puts it before them): reading the time, checking and writing
-- finishes, picking and adding claims. Each of the three reads everything before it writes and writes each key once,
-- so no command meets a key an earlier command of the script emptied: on the master of a migrating slot an emptied
-- key is a missing key, which the cluster refuses to a script wherever it meets it, keeping what was written
-- (decision 0041).

-- The time in ms: the caller's clock, or Redis's TIME when the argument is ''.
local function now_from(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The claims given as triples from ARGV[first] (id, expected score or '' for the unfenced form, event payload or ''):
-- 1 per claim held with that score in `claimed` (0: not held, nothing will be written for it), the finished ids, and
-- the events to publish.
local function check_finishes(claimed, first)
  local done, finished, events, seen = {}, {}, {}, {}
  for i = first, #ARGV, 3 do
    local id, expected, payload = ARGV[i], ARGV[i + 1], ARGV[i + 2]
    local score = not seen[id] and redis.call('ZSCORE', claimed, id)
    if score and (expected == '' or tonumber(score) == tonumber(expected)) then
      seen[id] = true
      finished[#finished + 1] = id
      if payload ~= '' then events[#events + 1] = payload end
      done[#done + 1] = 1
    else
      done[#done + 1] = 0
    end
  end
  return done, finished, events
end

-- The contract's writes of a finish per claim, each key written once for all of them (feed.finishes grows by the
-- number finished), the finish events in order.
local function write_finishes(claimed, cancelled, finishes, items, published, channel, finished, events)
  if #finished == 0 then return end
  redis.call('ZREM', claimed, unpack(finished))
  redis.call('HDEL', cancelled, unpack(finished))
  redis.call('INCRBY', finishes, #finished)
  for _, payload in ipairs(events) do redis.call('PUBLISH', channel, payload) end
  redis.call('HDEL', items, unpack(finished))
  redis.call('ZREM', published, unpack(finished))
end

-- Of the popped ids, those to claim: an id whose item was retracted, or that someone holds already, is dropped as the
-- WATCH form drops it. Appends id, item pairs to `out`; returns the ZADD arguments (score, id pairs).
local function pick_claims(ids, items, claimed, now, out)
  local taken, claims = {}, {}
  for _, id in ipairs(ids) do
    -- HGET answers false exactly when HEXISTS answers 0
    local item = redis.call('HGET', items, id)
    if item and not taken[id] and not redis.call('ZSCORE', claimed, id) then
      taken[id] = true
      claims[#claims + 1] = now
      claims[#claims + 1] = id
      out[#out + 1] = id
      out[#out + 1] = item
    end
  end
  return claims
end

-- ZADD only adds (it never empties feed.claimed), so chunks keep unpack within Lua's stack for any number of claims.
local function add_claims(claimed, claims)
  for first = 1, #claims, 400 do
    redis.call('ZADD', claimed, unpack(claims, first, math.min(first + 399, #claims)))
  end
end
