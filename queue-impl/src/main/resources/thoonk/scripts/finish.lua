-- Job Finish of n claims, each fenced by its claim score ('' = the contract's unfenced form: whoever holds it):
-- the contract's commands, the finish event when there is a result, and feed.published cleaned.
-- KEYS[1] feed.claimed, KEYS[2] feed.cancelled, KEYS[3] feed.finishes, KEYS[4] feed.items, KEYS[5] feed.published
-- ARGV[1] the finish channel (job.finish:<feed>), then triples of id, expected score or '', event payload
-- (id NUL result) or '' for no result. At most 1,000 claims a call (the client splits bigger batches).
-- Returns one 1 (finished) or 0 (not held with that score: nothing written) per claim.
--
-- Every claim is checked first, then each key is written once for all the finished claims: the keys, values and
-- events of a finish per claim (feed.finishes grows by the number finished), but no command meets a key an earlier
-- command of the script emptied. On the master of a migrating slot an emptied key is a missing key, which the
-- cluster refuses to a script wherever it meets it, keeping what was written: a finish per claim that emptied
-- feed.cancelled was stopped at the next claim's HDEL after its ZREM, and that job was nowhere any more (decision
-- 0041).
local done, finished, events, seen = {}, {}, {}, {}
for i = 2, #ARGV, 3 do
  local id, expected, payload = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local score = not seen[id] and redis.call('ZSCORE', KEYS[1], id)
  if score and (expected == '' or tonumber(score) == tonumber(expected)) then
    seen[id] = true
    finished[#finished + 1] = id
    if payload ~= '' then events[#events + 1] = payload end
    done[#done + 1] = 1
  else
    done[#done + 1] = 0
  end
end
if #finished > 0 then
  redis.call('ZREM', KEYS[1], unpack(finished))
  redis.call('HDEL', KEYS[2], unpack(finished))
  redis.call('INCRBY', KEYS[3], #finished)
  for _, payload in ipairs(events) do redis.call('PUBLISH', ARGV[1], payload) end
  redis.call('HDEL', KEYS[4], unpack(finished))
  redis.call('ZREM', KEYS[5], unpack(finished))
end
return done
