-- complete.lua for n jobs in one call: each job's eight keys and three arguments in turn (see complete.lua).
-- Returns one code per job: 1 ended, 0 lease not the caller's, 2 not a simple end (nothing written for it).
-- The jobs' removals from the lease set and the waiting set, and their additions to done / failed, go in one command
-- per key after the loop: the same members leave and join the same sets as one command per job would.
local codes = {}
local members = {} -- key -> {uuid, ...} for ZREM leases, SREM waiting
local added = {}   -- done or failed key -> {uuid, ...}
local order = {}   -- {command, key} in first-use order
local function collect(into, command, key, uuid)
  local list = into[key]
  if list == nil then
    list = {}
    into[key] = list
    order[#order + 1] = {command, key, into}
  end
  list[#list + 1] = uuid
end
for i = 0, #KEYS / 8 - 1 do
  local k, a = i * 8, i * 3
  if redis.call('GET', KEYS[k + 1]) ~= ARGV[a + 2] then
    codes[#codes + 1] = 0
  elseif redis.call('EXISTS', KEYS[k + 4], KEYS[k + 5], KEYS[k + 6]) > 0 then -- Redis keeps no empty list or set
    codes[#codes + 1] = 2
  else
    redis.call('DEL', KEYS[k + 1])
    redis.call('SET', KEYS[k + 3], ARGV[a + 3])
    collect(members, 'ZREM', KEYS[k + 2], ARGV[a + 1])
    collect(members, 'SREM', KEYS[k + 7], ARGV[a + 1])
    collect(added, 'SADD', KEYS[k + 8], ARGV[a + 1])
    codes[#codes + 1] = 1
  end
end
for _, write in ipairs(order) do
  local list = write[3][write[2]]
  for first = 1, #list, 1000 do -- within Lua's stack for unpack, however many jobs
    redis.call(write[1], write[2], unpack(list, first, math.min(first + 999, #list)))
  end
end
return codes
