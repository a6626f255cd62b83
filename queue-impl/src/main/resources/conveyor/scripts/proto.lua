-- Shared by the Conveyor scripts that read a job's bytes (claim, recovery, scheduler): the protobuf wire format of
-- conveyor/jobs.proto, read and rewritten field by field. Also the transition's time: an ARGV in milliseconds when
-- the client injects a clock (tests), else Redis's TIME at the moment the script runs.

-- On a Redis Cluster node whose slot is migrating, a key that is not on this node (moved already, or not created
-- yet) is refused to every command of a script, reads included, and the script stops where it is. A transition that
-- builds keys from the prefix (a popped job's) probes them all before its first write, so a refusal comes before
-- anything is written (decision 0023). Returns the refusal (an error table), or nil when every key is served here; on
-- one server, always nil.
local function refusal(...)
  for _, key in ipairs({...}) do
    local answer = redis.pcall('EXISTS', key)
    if type(answer) == 'table' and answer.err then return answer end
  end
  return nil
end

local function now_ms(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- A varint at pos: its value and the position after it; nil when the bytes end first or it is longer than ten.
local function varint(s, pos)
  local value, scale = 0, 1
  for _ = 1, 10 do
    local b = string.byte(s, pos)
    if b == nil then return nil end
    pos = pos + 1
    value = value + (b % 128) * scale
    if b < 128 then return value, pos end
    scale = scale * 128
  end
  return nil
end

local function put_varint(v)
  local out = {}
  while v >= 128 do
    out[#out + 1] = string.char(v % 128 + 128)
    v = math.floor(v / 128)
  end
  out[#out + 1] = string.char(v)
  return table.concat(out)
end

-- Wire type each known field must have (jobs.proto: strings, bytes and Timestamps 2, ints and the enum 0).
local JOB_WIRE = {2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 2, 0}
local STAMP_WIRE = {0, 0}

-- The top-level fields of a message as {number, raw bytes, value}: value is the payload of a length-delimited
-- field or the number of a varint. nil when the bytes are not a well-formed message of this shape.
local function fields(s, wires)
  local out, pos, last = {}, 1, #s
  while pos <= last do
    local start = pos
    local key
    key, pos = varint(s, pos)
    if key == nil then return nil end
    local wire, number = key % 8, math.floor(key / 8)
    if number == 0 or (wires[number] ~= nil and wires[number] ~= wire) then return nil end
    local value
    if wire == 0 then
      value, pos = varint(s, pos)
      if value == nil then return nil end
    elseif wire == 1 then
      pos = pos + 8
    elseif wire == 2 then
      local len
      len, pos = varint(s, pos)
      if len == nil or pos + len > last + 1 then return nil end
      value = string.sub(s, pos, pos + len - 1)
      pos = pos + len
    elseif wire == 5 then
      pos = pos + 4
    else
      return nil
    end
    if pos > last + 1 then return nil end
    out[#out + 1] = {number, string.sub(s, start, pos - 1), value}
  end
  return out
end

-- The job's fields, checked as JobWire.decode checks them (Timestamps well formed, a known status); nil if not.
local function job_fields(s)
  local fs = fields(s, JOB_WIRE)
  if fs == nil then return nil end
  for _, f in ipairs(fs) do
    if (f[1] == 5 or f[1] == 8) and fields(f[3], STAMP_WIRE) == nil then return nil end
    if f[1] == 12 and f[3] > 3 then return nil end
  end
  return fs
end

local function field(fs, number)
  local value = nil
  for _, f in ipairs(fs) do
    if f[1] == number then value = f[3] end -- the last occurrence wins, as in protobuf
  end
  return value
end

local function timestamp_field(ms)
  local seconds, nanos = math.floor(ms / 1000), (ms % 1000) * 1000000
  local m = ''
  if seconds ~= 0 then m = '\8' .. put_varint(seconds) end
  if nanos ~= 0 then m = m .. '\16' .. put_varint(nanos) end
  return '\66' .. put_varint(#m) .. m
end

-- The job with started_at (field 8) and status (field 12) replaced, fields in number order: for JobWire's own
-- bytes this is exactly what JobWire.encode writes (started_at nil = absent, status 0 = ENQUEUED = absent).
local function rewritten(fs, started_ms, status)
  local parts = {}
  for _, f in ipairs(fs) do
    if f[1] < 8 then parts[#parts + 1] = f[2] end
  end
  if started_ms ~= nil then parts[#parts + 1] = timestamp_field(started_ms) end
  for _, f in ipairs(fs) do
    if f[1] > 8 and f[1] < 12 then parts[#parts + 1] = f[2] end
  end
  if status ~= 0 then parts[#parts + 1] = '\96' .. put_varint(status) end
  for _, f in ipairs(fs) do
    if f[1] > 12 then parts[#parts + 1] = f[2] end
  end
  return table.concat(parts)
end
