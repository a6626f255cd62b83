-- Renews a claim (fenced): its score, the claim time maintenance measures from and the fencing token, becomes
-- now, unless now is not later than it (then it stays, still held).
-- KEYS[1] feed.claimed; ARGV[1] id, ARGV[2] expected score, ARGV[3] now (ms, '' = TIME).
-- Returns the claim's score after the call, or false when not held with that score (nothing written).
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return false end
local now
if ARGV[3] ~= '' then
  now = tonumber(ARGV[3])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
if now <= tonumber(score) then return tonumber(score) end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return now
