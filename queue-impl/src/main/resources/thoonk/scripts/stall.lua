-- Job Stall (fenced by the claim score, '' = unfenced): out of the running, kept.
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.stalled, KEYS[4] feed.published
-- ARGV[1] id, ARGV[2] expected score or ''. Returns 1, or 0 when not held with that score (nothing written).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or (ARGV[2] ~= '' and tonumber(score) ~= tonumber(ARGV[2])) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
return 1
