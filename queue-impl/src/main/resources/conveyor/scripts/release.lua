-- Hands a leased job back (fenced): it leaves the lease set, its record is ENQUEUED again and it goes to the
-- claiming end of its queue (next in line), with a wake. Also the retry of a failed run: then the record goes to
-- the scheduled set at its due time instead (ARGV[5] non-empty).
-- KEYS[1] jobs:<uuid>:lease, KEYS[2] conveyor:leases, KEYS[3] jobs:<uuid>, KEYS[4] the queue or scheduled,
-- KEYS[5] the wake channel; ARGV[1] uuid, ARGV[2] token, ARGV[3] record, ARGV[4] queue name,
-- ARGV[5] due (epoch seconds) or '', ARGV[6] the wake command (PUBLISH or SPUBLISH). Returns 1, or 0 when the lease
-- is lost (nothing written).
if redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[3], ARGV[3])
if ARGV[5] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[5], ARGV[3])
else
  redis.call('RPUSH', KEYS[4], ARGV[3])
  redis.call(ARGV[6], KEYS[5], ARGV[4])
end
return 1
