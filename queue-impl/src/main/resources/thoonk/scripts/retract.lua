-- Job Retract: the job removed wherever it is.
-- KEYS[1] feed.items, KEYS[2] feed.cancelled, KEYS[3] feed.published, KEYS[4] feed.stalled, KEYS[5] feed.claimed,
-- KEYS[6] feed.ids; ARGV[1] id. Returns 1, or 0 when there is no such job (nothing written).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('LREM', KEYS[6], 1, ARGV[1])
return 1
