-- promoteDue outside a claim (the master's periodic upkeep): every failed job whose backoff has passed back to the
-- ready set, as its MULTI/EXEC form does (and as every claim does first). When a job is due, it refuses itself first
-- while the namespace's slot migrates away from this node, before any write, so the client waits for the migration
-- and runs it again; when none is (most ticks), it has nothing to write and answers 0 at once, migration or not, so
-- the master's upkeep does not wait out a migration for nothing.
-- KEYS[1] delayed, KEYS[2] ready; ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME)
-- Returns the number of jobs promoted, or the migration's refusal.
local t = now_ms(ARGV[2])
if #redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t, 'LIMIT', 0, 1) == 0 then return 0 end
local refused = migrating(ARGV[1])
if refused then return refused end
local promoted, stopped = promote_due(ARGV[1], KEYS[1], KEYS[2], t)
if stopped and promoted == 0 then return stopped end
return promoted
