-- Upkeep, at most `limit` entries of each kind per call: kept results past their retention, and finished records
-- (succeeded, failed) older than the finished retention, their hashes with them.
-- KEYS[1] results, KEYS[2] succeeded, KEYS[3] failed
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] finished retention (ms), ARGV[4] limit
-- Returns {results dropped, finished records dropped, 1 when a kind reached the limit (call again) else 0}.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
local limit = tonumber(ARGV[4])
local cutoff = t - tonumber(ARGV[3])
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t, 'LIMIT', 0, limit)
local old = {}
for k = 2, 3 do old[k] = redis.call('ZRANGEBYSCORE', KEYS[k], '-inf', cutoff, 'LIMIT', 0, limit) end
-- every key dropped below, probed before the first write
for _, m in ipairs(expired) do
  local refused = refusal(prefix .. 'result:' .. tonumber(m))
  if refused then return refused end
end
for k = 2, 3 do
  for _, m in ipairs(old[k]) do
    local refused = refusal(prefix .. 'job:' .. tonumber(m))
    if refused then return refused end
  end
end
for _, m in ipairs(expired) do
  redis.call('DEL', prefix .. 'result:' .. tonumber(m))
  redis.call('ZREM', KEYS[1], m)
end
local finished = 0
for k = 2, 3 do
  for _, m in ipairs(old[k]) do
    redis.call('ZREM', KEYS[k], m)
    redis.call('DEL', prefix .. 'job:' .. tonumber(m))
    finished = finished + 1
  end
end
local more = (#expired == limit or #old[2] == limit or #old[3] == limit) and 1 or 0
return {#expired, finished, more}
