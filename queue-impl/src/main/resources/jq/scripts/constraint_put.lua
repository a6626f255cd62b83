-- A constraint defined or redefined: its MessagePack definition under its id, what the plain HSET writes. A script
-- only so that, like every other JQ write, it refuses itself while the namespace's slot migrates away from this node
-- (the client waits and runs it again) instead of writing there. The constraint's rate log and running set are kept:
-- a redefinition applies the new limits to what already ran.
-- KEYS[1] constraints; ARGV[1] key prefix, ARGV[2] constraint id, ARGV[3] definition
-- Returns 1 when the id is new, 0 when it was redefined, or the migration's refusal.
local refused = migrating(ARGV[1])
if refused then return refused end
return redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
