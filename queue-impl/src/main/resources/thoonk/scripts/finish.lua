-- Job Finish of n claims, each fenced by its claim score ('' = the contract's unfenced form: whoever holds it):
-- the contract's commands, the finish event when there is a result, and feed.published cleaned.
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published
-- ARGV[1] the finish channel (job.finish:<feed>), then triples of id, expected score or '', event payload
-- (id NUL result) or '' for no result.
-- Returns one 1 (finished) or 0 (not held with that score: nothing written) per claim.
local done = {}
for i = 2, #ARGV, 3 do
  local id, expected, payload = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score and (expected == '' or tonumber(score) == tonumber(expected)) then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('INCR', KEYS[3])
    if payload ~= '' then redis.call('PUBLISH', ARGV[1], payload) end
    redis.call('HDEL', KEYS[4], id)
    redis.call('ZREM', KEYS[5], id)
    done[#done + 1] = 1
  else
    done[#done + 1] = 0
  end
end
return done
