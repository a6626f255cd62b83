-- Counts the Lua instructions and the redis.call commands per job of rescue's scripts in the queue benchmark's loop
-- (create B -> search up to B -> delete each), with luaj's count hook, over a fake Redis made of Lua tables (only
-- the commands that loop uses). The fake's own instructions are not counted. Decision 0039 has its figures.
--   java -cp ~/.m2/repository/org/luaj/luaj-jse/3.0.1/luaj-jse-3.0.1.jar lua bench/rescue-lua-count.lua \
--     queue-impl/src/main/resources/rescue/scripts 1000 10
unpack = unpack or table.unpack -- luaj is Lua 5.2; the scripts are written for Redis's 5.1
local dir, jobs, batch = arg[1], tonumber(arg[2]), tonumber(arg[3])
local function slurp(p) local f = assert(io.open(p)); local s = f:read('*a'); f:close(); return s end
local tasks = slurp(dir .. '/../../script/civil.lua') .. '\n' .. slurp(dir .. '/tasks.lua')
local chunks = {}
for _, n in ipairs({'create', 'search', 'delete'}) do
  chunks[n] = assert((loadstring or load)(tasks .. '\n' .. slurp(dir .. '/' .. n .. '.lua'), n))
end
local db, counting, instructions, commands = {}, false, 0, 0
local clock = 1700000000000
local function set(k) db[k] = db[k] or {}; return db[k] end
local function zsorted(k)
  local z, out = db[k] or {}, {}
  for m, s in pairs(z) do out[#out + 1] = {m, s} end
  table.sort(out, function(a, b) if a[2] ~= b[2] then return a[2] < b[2] end return a[1] < b[1] end)
  return out
end
local C = {}
function C.EXISTS(k) return db[k] and 1 or 0 end
function C.TIME() return {tostring(math.floor(clock / 1000)), tostring((clock % 1000) * 1000)} end
function C.INCR(k) db[k] = (db[k] or 0) + 1; return db[k] end
function C.HSET(k, ...) local h, a = set(k), {...}; for i = 1, #a, 2 do h[a[i]] = a[i + 1] end; return #a / 2 end
function C.HDEL(k, ...) local h = set(k); for _, f in ipairs({...}) do h[f] = nil end; return 1 end
function C.HGETALL(k) local out = {}; for f, v in pairs(db[k] or {}) do out[#out + 1] = f; out[#out + 1] = v end; return out end
function C.SADD(k, ...) local s = set(k); for _, m in ipairs({...}) do s[m] = true end; return 1 end
function C.SREM(k, ...) local s = set(k); for _, m in ipairs({...}) do s[m] = nil end; return 1 end
function C.SISMEMBER(k, m) return (db[k] and db[k][m]) and 1 or 0 end
function C.ZADD(k, s, m) set(k)[m] = tonumber(s); return 1 end
function C.ZREM(k, m) set(k)[m] = nil; return 1 end
function C.ZRANGE(k, a, b) local out = {}; for i, e in ipairs(zsorted(k)) do if i - 1 >= a and i - 1 <= b then out[#out + 1] = e[1] end end; return out end
function C.ZRANGEBYSCORE() return {} end
function C.GET(k) return db[k] end
function C.SET(k, v) db[k] = v; return 'OK' end
function C.DEL(...) for _, k in ipairs({...}) do db[k] = nil end; return 1 end
function C.PUBLISH() return 0 end
-- The fake's own instructions are not the script's: the count is put back to what it was at the call.
local function call(cmd, ...)
  local before = instructions
  commands = commands + 1
  local r = assert(C[cmd], cmd)(...)
  instructions = before
  return r
end
redis = {call = call, pcall = call}
debug.sethook(function() if counting then instructions = instructions + 1 end end, '', 1)
local P = '{rescue:b}:'
local function run(name, keys, argv)
  KEYS, ARGV = keys, argv
  counting = true
  local r = chunks[name]()
  counting = false
  return r
end
local done = 0
while done < jobs do
  local argv = {P, '', '600000'}
  for i = 1, batch do argv[#argv + 1] = '1'; argv[#argv + 1] = 'meta:bench.io/kind'; argv[#argv + 1] = 'job' end
  run('create', {P .. 'seq', P .. 'all'}, argv)
  local found = run('search', {P .. 'available', P .. 'broadcast', P .. 'owned', P .. 'retention'},
    {P, '', 'w', '30000', tostring(batch), '256'})
  local at = 2
  for _ = 1, found[1] do
    local n = found[at]
    local fields = {}
    for i = at + 1, at + 2 * n, 2 do fields[found[i]] = found[i + 1] end
    at = at + 1 + 2 * n
    run('delete', {P .. 'all'}, {P, '', 'w', '600000', fields['core:task.rescue.io/object'], 'w',
      fields['core:task.rescue.io/cycles'], '0', '0'})
    done = done + 1
  end
end
print(string.format('%s B%d: %.0f Lua instructions, %.1f commands per job', dir, batch,
  instructions / jobs, commands / jobs))
