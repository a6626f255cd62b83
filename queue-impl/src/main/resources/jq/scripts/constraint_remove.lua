-- A constraint removed: its definition and its bookkeeping (rate log, running set), in one step, as the MULTI/EXEC
-- form does; running jobs that held it release nothing later (their SREM finds no set). Refuses itself while the
-- namespace's slot migrates away from this node, before any write.
-- KEYS[1] constraints, KEYS[2] the constraint's starts, KEYS[3] the constraint's running set; ARGV[1] key prefix,
-- ARGV[2] constraint id
-- Returns 1 when the definition existed, 0 when it did not, or the migration's refusal.
local refused = migrating(ARGV[1])
if refused then return refused end
local removed = redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
return removed
