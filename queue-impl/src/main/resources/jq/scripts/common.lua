-- Shared by JQ's scripts: the time of the transition, the job key and the ready-set member of an id, the per-name
-- state counters, and the few MessagePack encodings the failure log needs (the same bytes as msgpack-java writes:
-- smallest integer form, fixstr / str8 / str16 / str32), so a record written here reads as one written in Java.

-- ARGV's time: '' = Redis's TIME now, else the client's injected clock (epoch ms).
-- On a Redis Cluster node whose slot is migrating, a key that is not on this node (moved already, or not created
-- yet) is refused to every command of a script, reads included, and the script stops where it is. A script probes
-- the keys it builds from the prefix before it writes them, so a refusal comes before anything is written (decision
-- 0023). Returns the refusal (an error table), or nil when every key is served here; on one server, always nil.
local function refusal(...)
  for _, key in ipairs({...}) do
    local answer = redis.pcall('EXISTS', key)
    if type(answer) == 'table' and answer.err then return answer end
  end
  return nil
end

-- For a script that writes keys it cannot probe one by one before its first write (or need not): EXISTS of a key
-- nothing ever writes is refused exactly while this node migrates the namespace's slot away (decisions 0029, 0041).
-- Returns the refusal for the script to return, nothing written; nil on a stable slot and on one server.
local function migrating(prefix)
  return refusal(prefix .. 'migration-probe')
end

local function now_ms(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- The sorted-set member of an id: zero-padded to 19 digits so equal scores order by id (enqueue order).
local function member(id)
  return string.format('%019d', id)
end

local function move_stat(prefix, name, from, to)
  redis.call('HINCRBY', prefix .. 'stats:' .. name, from, -1)
  redis.call('HINCRBY', prefix .. 'stats:' .. name, to, 1)
end

-- Every failed job whose backoff has passed by t back to the ready set, queued again: what promoteDue's MULTI/EXEC
-- writes, and what every claim does first. Each job's keys are probed before its first write, so on a migrating slot
-- the promotion stops before a job it cannot move whole. Returns the number of jobs promoted (a due member whose
-- record is gone is only dropped from delayed), and the refusal that stopped it, if one did.
local function promote_due(prefix, delayed, ready, t)
  local promoted = 0
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', delayed, '-inf', t)) do
    local job = prefix .. 'job:' .. tonumber(m)
    local refused = refusal(job)
    if refused then return promoted, refused end
    local f = redis.call('HMGET', job, 'priority', 'name')
    refused = f[2] and refusal(prefix .. 'stats:' .. f[2])
    if refused then return promoted, refused end
    redis.call('ZREM', delayed, m)
    if f[1] then
      redis.call('ZADD', ready, f[1], m)
      redis.call('HSET', job, 'state', 'queued')
      move_stat(prefix, f[2], 'delayed', 'queued')
      promoted = promoted + 1
    end
  end
  return promoted, nil
end

local function be_bytes(n, width)
  local out = {}
  for i = width, 1, -1 do
    out[i] = string.char(n % 256)
    n = math.floor(n / 256)
  end
  return table.concat(out)
end

local function mp_str(s)
  local n = #s
  if n < 32 then return string.char(0xa0 + n) .. s end
  if n < 256 then return '\217' .. string.char(n) .. s end
  if n < 65536 then return '\218' .. be_bytes(n, 2) .. s end
  return '\219' .. be_bytes(n, 4) .. s
end

-- Non-negative integers only (ids, attempts, epoch ms): all this log holds.
local function mp_uint(n)
  if n < 128 then return string.char(n) end
  if n < 256 then return '\204' .. string.char(n) end
  if n < 65536 then return '\205' .. be_bytes(n, 2) end
  if n < 4294967296 then return '\206' .. be_bytes(n, 4) end
  return '\207' .. be_bytes(n, 8)
end

-- The constraint ids a running attempt holds: a MessagePack array of strings, or (records written before that
-- format) the ids joined with ','.
local function held_constraints(raw)
  if raw == false or raw == nil or raw == '' then return {} end
  local first = string.byte(raw, 1)
  if (first >= 0x90 and first <= 0x9f) or first == 0xdc or first == 0xdd then
    return cmsgpack.unpack(raw)
  end
  local ids = {}
  for id in string.gmatch(raw, '[^,]+') do ids[#ids + 1] = id end
  return ids
end

-- Epoch ms as java.time.Instant.toString writes it (UTC, seconds always, milliseconds only when not zero).
local function iso_instant(ms)
  local seconds = math.floor(ms / 1000)
  local millis = ms - seconds * 1000
  local days = math.floor(seconds / 86400)
  local rest = seconds - days * 86400
  local year, month, day = civil(days)
  local text = string.format('%04d-%02d-%02dT%02d:%02d:%02d', year, month, day, math.floor(rest / 3600),
    math.floor(rest / 60) % 60, rest % 60)
  if millis > 0 then text = text .. string.format('.%03d', millis) end
  return text .. 'Z'
end
