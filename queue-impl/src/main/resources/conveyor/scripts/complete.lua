-- The end of a run of a job without parent whose children, active children and onComplete list are all empty
-- (the client sends any other job to finish.lua): fenced by the token, then it leaves the lease set
-- and is final, done or failed, at once. Leaves `finished`: 0 = the lease is not the caller's (nothing written),
-- 2 = not a simple end after all (nothing written: the client calls finish.lua), 1 = done.
-- KEYS[1] jobs:<uuid>:lease, KEYS[2] conveyor:leases, KEYS[3] jobs:<uuid>, KEYS[4] jobs:<uuid>:children,
-- KEYS[5] jobs:<uuid>:active, KEYS[6] jobs:<uuid>:onComplete, KEYS[7] conveyor:waiting, KEYS[8] done or failed
-- ARGV[1] uuid, ARGV[2] token, ARGV[3] the final record
local finished
if redis.call('GET', KEYS[1]) ~= ARGV[2] then
  finished = 0
elseif redis.call('EXISTS', KEYS[4], KEYS[5], KEYS[6]) > 0 then -- Redis keeps no empty list or set
  finished = 2
else
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[3], ARGV[3])
  redis.call('SREM', KEYS[7], ARGV[1])
  redis.call('SADD', KEYS[8], ARGV[1])
  finished = 1
end
