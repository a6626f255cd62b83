-- Job Finish of n claims, each fenced by its claim score ('' = the contract's unfenced form: whoever holds it):
-- the contract's commands, the finish event when there is a result, and feed.published cleaned (claims.lua first).
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published
-- ARGV[1] the finish channel (job.finish:<feed>), then triples of id, expected score or '', event payload
-- (id NUL result) or '' for no result. At most 1,000 claims a call (the client splits bigger batches).
-- Returns one 1 (finished) or 0 (not held with that score: nothing written) per claim.
--
-- Every claim is checked first, then each key is written once: a finish per claim that emptied feed.cancelled was
-- stopped on a migrating master at the next claim's HDEL after its ZREM, and that job was nowhere any more.
local done, finished, events = check_finishes(KEYS[1], 2)
write_finishes(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], finished, events)
return done
