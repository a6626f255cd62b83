-- Job Finish of one claim (finish.lua without its loop, so the simulator runs it on its engine thread).
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published
-- ARGV[1] id, ARGV[2] expected score or '' (unfenced), ARGV[3] event payload or '', ARGV[4] the event channel.
-- Returns 1, or 0 when the id is not held with that score (nothing written).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or (ARGV[2] ~= '' and tonumber(score) ~= tonumber(ARGV[2])) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('INCR', KEYS[3])
if ARGV[3] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[3]) end
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
return 1
