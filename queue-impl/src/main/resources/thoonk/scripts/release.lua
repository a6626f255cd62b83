-- Hands a claim back without counting a failure (fenced): next in line (RPUSH, the claiming end).
-- KEYS[1] feed.claimed, KEYS[2] feed.ids; ARGV[1] id, ARGV[2] expected score.
-- Returns 1, or 0 when not held with that score (nothing written).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or (ARGV[2] ~= '' and tonumber(score) ~= tonumber(ARGV[2])) then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
