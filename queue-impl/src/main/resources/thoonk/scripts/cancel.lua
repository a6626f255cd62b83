-- Job Cancel (fenced by the claim score, '' = unfenced): a failure counted, back at the head of the line.
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.ids; ARGV[1] id, ARGV[2] expected score or ''.
-- Returns 1, or 0 when the id is not held with that score (nothing written).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or (ARGV[2] ~= '' and tonumber(score) ~= tonumber(ARGV[2])) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('LPUSH', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
