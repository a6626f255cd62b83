-- Job Finish of n claims and Job Get of up to m next ones, in one step (complete-and-claim-next): the keys, values and
-- events of finish.lua then get.lua run one after the other.
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published,
-- KEYS[6] feed.ids
-- ARGV[1] now (ms, '' = TIME), ARGV[2] m, ARGV[3] the finish channel, then triples of id, expected score or '',
-- event payload or '' (as finish.lua). At most 1,000 claims a call.
-- Returns {now, {1 or 0 per claim finished}, {id, item, id, item, ...}}.
--
-- Everything is read before anything is written, and each key is written once (feed.claimed: the new claims added,
-- then the finished ones removed), so no command meets a key an earlier one emptied: a migrating master refuses a
-- script's access to a missing key wherever it comes (decision 0041). Reading the popped ids before the finish
-- changes nothing: an id both finished and popped is held by the finisher, so it is dropped, as get drops an id whose
-- item the finish removed.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local done, finished, events, seen = {}, {}, {}, {}
for i = 4, #ARGV, 3 do
  local id, expected, payload = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local score = not seen[id] and redis.call('ZSCORE', KEYS[1], id)
  if score and (expected == '' or tonumber(score) == tonumber(expected)) then
    seen[id] = true
    finished[#finished + 1] = id
    if payload ~= '' then events[#events + 1] = payload end
    done[#done + 1] = 1
  else
    done[#done + 1] = 0
  end
end
local out, claims = {}, {}
local m = tonumber(ARGV[2])
local ids = m >= 1 and redis.call('RPOP', KEYS[6], m)
if ids then
  local taken = {}
  for _, id in ipairs(ids) do
    local item = redis.call('HGET', KEYS[4], id)
    if item and not taken[id] and not redis.call('ZSCORE', KEYS[1], id) then
      taken[id] = true
      claims[#claims + 1] = now
      claims[#claims + 1] = id
      out[#out + 1] = id
      out[#out + 1] = item
    end
  end
end
for first = 1, #claims, 400 do
  redis.call('ZADD', KEYS[1], unpack(claims, first, math.min(first + 399, #claims)))
end
if #finished > 0 then
  redis.call('ZREM', KEYS[1], unpack(finished))
  redis.call('HDEL', KEYS[2], unpack(finished))
  redis.call('INCRBY', KEYS[3], #finished)
  for _, payload in ipairs(events) do redis.call('PUBLISH', ARGV[3], payload) end
  redis.call('HDEL', KEYS[4], unpack(finished))
  redis.call('ZREM', KEYS[5], unpack(finished))
end
return {now, done, out}
