-- complete.lua for n jobs in one call: each job's eight keys and three arguments in turn (see complete.lua).
-- Returns one code per job: 1 ended, 0 lease not the caller's, 2 not a simple end (nothing written for it).
local codes = {}
for i = 0, #KEYS / 8 - 1 do
  local k, a = i * 8, i * 3
  if redis.call('GET', KEYS[k + 1]) ~= ARGV[a + 2] then
    codes[#codes + 1] = 0
  elseif redis.call('EXISTS', KEYS[k + 4], KEYS[k + 5], KEYS[k + 6]) > 0 then -- Redis keeps no empty list or set
    codes[#codes + 1] = 2
  else
    redis.call('ZREM', KEYS[k + 2], ARGV[a + 1])
    redis.call('DEL', KEYS[k + 1])
    redis.call('SET', KEYS[k + 3], ARGV[a + 3])
    redis.call('SREM', KEYS[k + 7], ARGV[a + 1])
    redis.call('SADD', KEYS[k + 8], ARGV[a + 1])
    codes[#codes + 1] = 1
  end
end
return codes
