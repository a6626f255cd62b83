-- Shared by the scripts that move jobs along a tree of parents, children and successors (add, finish, settle); put
-- after proto.lua. The same steps as Placement.java and Finisher.java, so the scripted and the WATCH/MULTI forms
-- leave the same keys and values. Keys of other jobs (a parent, a child's queue) are built from the prefix, which on
-- a cluster carries the queue's hash tag: every key stays in the queue's slot.

local prefix, wake_command

-- Every script calls this first: the key prefix and PUBLISH or SPUBLISH for the wakes.
local function use_keys(p, wake)
  prefix, wake_command = p, wake
end

local function job_key(uuid, suffix)
  return prefix .. 'jobs:' .. uuid .. (suffix or '')
end

-- A Timestamp field's seconds are an int64: a negative one comes out of varint() as 2^64 - |s|.
local function signed(v)
  if v >= 2 ^ 63 then return v - 2 ^ 64 end
  return v
end

-- run_at of a job's fields: the exact instant in epoch ms (a fraction for sub-millisecond nanos, compared with now
-- as Java's Instant.isAfter does) and the scheduled score's text, the whole milliseconds (Instant.toEpochMilli, which
-- floors) over 1000 written out in decimal, so Redis parses it to the same double as Java's millis / 1000.0.
-- nil when the job has no run_at.
local function run_at(fs)
  local stamp = field(fs, 5)
  if stamp == nil then return nil end
  local ts = fields(stamp, STAMP_WIRE)
  local seconds, nanos = signed(field(ts, 1) or 0), field(ts, 2) or 0
  local exact = seconds * 1000 + nanos / 1000000
  local ms = seconds * 1000 + math.floor(nanos / 1000000)
  local sign = ''
  if ms < 0 then sign, ms = '-', -ms end
  return exact, sign .. string.format('%.0f', math.floor(ms / 1000)) .. '.' .. string.format('%03d', ms % 1000)
end

-- Where a job goes once nothing holds it back (the spec's steps 4-6): a job with a parent joins the parent's active
-- set first (a delayed child holds its parent back too), then scheduled when due after now, else its queue, woken.
local function place(bytes, uuid, queue, parent, exact_run_at, score, t)
  if parent ~= nil and parent ~= '' then redis.call('SADD', job_key(parent, ':active'), uuid) end
  if exact_run_at ~= nil and exact_run_at > t then
    redis.call('ZADD', prefix .. 'scheduled', score, bytes)
  else
    redis.call('LPUSH', prefix .. queue, bytes)
    redis.call(wake_command, prefix .. 'conveyor:wake:' .. queue, queue)
  end
end

-- The jobs of a children or onComplete list, decoded before anything is written: bytes that are no job stop the
-- script with an error, as JobWire.decode stops the WATCH/MULTI form before its EXEC.
local function decoded_all(list)
  local out = {}
  for i, bytes in ipairs(list) do
    local fs = job_fields(bytes)
    if fs == nil then return nil, redis.error_reply('conveyor: a buffered job does not decode') end
    out[i] = fs
  end
  return out
end

local function place_all(list, decoded, t)
  for i, bytes in ipairs(list) do
    local fs = decoded[i]
    local exact, score = run_at(fs)
    place(bytes, field(fs, 1) or '', field(fs, 3) or '', field(fs, 6), exact, score, t)
  end
end

-- A job whose run and whose children are over becomes final: its onComplete jobs are placed, it leaves waiting for
-- done (completed) or failed, its record is written again (an Add watching it in the WATCH/MULTI form sees that the
-- onComplete list is closed), and it leaves its parent's active set for the settling set. Returns its parent or
-- nil; or nil and an error when a successor does not decode (nothing written for this job).
local function finalize(uuid, record, parent, completed, t)
  local successors = redis.call('LRANGE', job_key(uuid, ':onComplete'), 0, -1)
  local decoded, bad = decoded_all(successors)
  if bad then return nil, bad end
  place_all(successors, decoded, t)
  redis.call('DEL', job_key(uuid, ':onComplete'))
  redis.call('SREM', prefix .. 'conveyor:waiting', uuid)
  redis.call('SADD', prefix .. (completed and 'conveyor:done' or 'conveyor:failed'), uuid)
  redis.call('SET', job_key(uuid), record)
  if parent == nil or parent == '' then return nil end
  redis.call('SREM', job_key(parent, ':active'), uuid)
  redis.call('SADD', prefix .. 'conveyor:settling', uuid)
  return parent
end

-- Settles the parent that `child` left, then that parent's own parent, and so on up, at most `budget` parents: a
-- parent that waits (it ran) with an empty active set is finalized; otherwise a child still active settles it when it
-- leaves. Each child's entry leaves the settling set as its parent is settled. Returns nothing when the climb ended,
-- or the child and parent still to settle when the budget ran out (that child's entry stays in the settling set, for
-- the client's next call or recovery); or an error (see finalize).
local function settle(child, parent, budget, t)
  while parent ~= nil do
    if budget <= 0 then return {child, parent} end
    budget = budget - 1
    local ready = redis.call('SCARD', job_key(parent, ':active')) == 0
      and redis.call('SISMEMBER', prefix .. 'conveyor:waiting', parent) == 1
    local record = ready and redis.call('GET', job_key(parent))
    local fs = record and job_fields(record)
    if record and fs == nil then return redis.error_reply('conveyor: the record of ' .. parent .. ' does not decode') end
    local up, bad
    if record then
      up, bad = finalize(parent, record, field(fs, 6), field(fs, 12) == 2, t)
      if bad then return bad end
    end
    redis.call('SREM', prefix .. 'conveyor:settling', child)
    if not record then return {} end
    child, parent = parent, up
  end
  return {}
end
