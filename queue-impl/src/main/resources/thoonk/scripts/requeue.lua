-- Maintenance's requeue of ids lost between a worker's BRPOP and its claim. Which ids are lost, and since when, is
-- the maintenance client's memory of its earlier passes; this script only re-checks, at the moment it writes, what
-- that memory cannot know: each id is still an item and in none of ids, claimed or stalled (a slow worker may have
-- claimed it, or someone retracted, finished or requeued it, since the pass read the feed). The same check and the
-- same single LPUSH as the WATCH/MULTI form; no event (the contract publishes none for it).
-- KEYS[1] feed.items, KEYS[2] feed.ids, KEYS[3] feed.claimed, KEYS[4] feed.stalled; ARGV the ids, in the order to
-- requeue them. Returns, per id, 1 when requeued or 0 when it was accounted for again (nothing written for it).
-- Every key is declared and the script only adds to feed.ids, so on a migrating slot the cluster refuses it whole,
-- up front, or runs it whole (decision 0041).
local out = {}
for i, id in ipairs(ARGV) do
  out[i] = 0
  if redis.call('HEXISTS', KEYS[1], id) == 1 and not redis.call('LPOS', KEYS[2], id)
      and not redis.call('ZSCORE', KEYS[3], id) and redis.call('SISMEMBER', KEYS[4], id) == 0 then
    redis.call('LPUSH', KEYS[2], id)
    out[i] = 1
  end
end
return out
