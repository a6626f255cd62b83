-- Job Finish of n claims and Job Get of up to m next ones, in one step (complete-and-claim-next): the keys, values and
-- events of finish.lua then get.lua run one after the other (claims.lua first).
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published,
-- KEYS[6] feed.ids
-- ARGV[1] now (ms, '' = TIME), ARGV[2] m, ARGV[3] the finish channel, then triples of id, expected score or '',
-- event payload or '' (as finish.lua). At most 1,000 claims a call.
-- Returns {now, {1 or 0 per claim finished}, {id, item, id, item, ...}}.
--
-- Everything is read before anything is written, and each key is written once (feed.claimed: the new claims added,
-- then the finished ones removed). Reading the popped ids before the finish changes nothing: an id both finished and
-- popped is held by the finisher, so it is dropped, as get drops an id whose item the finish removed.
local now = now_from(ARGV[1])
local done, finished, events = check_finishes(KEYS[1], 4)
local out = {}
local m = tonumber(ARGV[2])
local ids = m >= 1 and redis.call('RPOP', KEYS[6], m)
if ids then
  add_claims(KEYS[1], pick_claims(ids, KEYS[4], KEYS[1], now, out))
end
write_finishes(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[3], finished, events)
return {now, done, out}
