-- Claim up to n jobs: first every failed job whose backoff has passed rejoins the ready set (as promote does), then
-- jobs are dispatched in the spec's order (smallest priority, ties by id), n times or until none is eligible. With
-- no constraint defined that is the head of the ready set each time. With constraints, a job whose constraints are
-- full right now is passed over for the next one (docs/contracts/jq.md, decision 3): the ready set is read in pages
-- that grow (1, 8, 64, then the scan page), each candidate's matched constraints are looked at once (rate window,
-- running count) and the answer reused until a dispatch uses one of them up.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] running, KEYS[4] constraints
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] worker, ARGV[4] n, ARGV[5] scan page
-- Returns {count, then 6 per job: id, attempt, name, argument, timeout_ms, deadline}, or a slot migration's refusal
-- when nothing could be dispatched.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
-- a migrating slot may stop the promotions before a job whose keys are not here: the claims below go on
promote_due(prefix, KEYS[1], KEYS[2], t)
local out = {0}
local n = tonumber(ARGV[4])

local function dispatch(m, id, f, held)
  local attempt = tonumber(f[2]) + 1
  local deadline = t + tonumber(f[3])
  redis.call('ZADD', KEYS[3], deadline, m)
  redis.call('HSET', prefix .. 'job:' .. id, 'state', 'running', 'attempts', attempt, 'deadline', deadline,
    'worker', ARGV[3], 'constraints', mp_str_array(held))
  move_stat(prefix, f[4], 'queued', 'running')
  out[1] = out[1] + 1
  out[#out + 1] = id
  out[#out + 1] = attempt
  out[#out + 1] = f[4]
  out[#out + 1] = f[5]
  out[#out + 1] = tonumber(f[3])
  out[#out + 1] = deadline
  return attempt
end

-- The job's keys (its hash, its counters) probed, then its fields; a refusal instead when a key is not served here.
local function read_job(id)
  local job = prefix .. 'job:' .. id
  local refused = refusal(job)
  if refused then return nil, refused end
  local f = redis.call('HMGET', job, 'state', 'attempts', 'timeout_ms', 'name', 'argument')
  refused = f[4] and refusal(prefix .. 'stats:' .. f[4])
  if refused then return nil, refused end
  return f
end

local definitions = redis.call('HGETALL', KEYS[4])
if #definitions == 0 then
  while out[1] < n do
    local head = redis.call('ZRANGE', KEYS[2], 0, 0)
    if #head == 0 then break end
    local m = head[1]
    local id = tonumber(m)
    -- the head's keys are probed before it leaves the ready set: a migrating slot refuses before anything is written
    local f, refused = read_job(id)
    if refused then
      -- nothing claimed: the client waits for the migration and tries again (promotions above stand: they are whole)
      if out[1] == 0 then return refused end
      break
    end
    redis.call('ZPOPMIN', KEYS[2])
    -- A member whose record is gone (trimmed) or not queued is stale bookkeeping: dropping it is what claim did.
    if f[1] == 'queued' then dispatch(m, id, f, {}) end
  end
  return out
end

local constraints = read_constraints(definitions)
local page_max = tonumber(ARGV[5])
-- constraint id -> whether one more dispatch fits it now (nil: not looked at since its last change)
local room = {}
local function starts_key(c) return prefix .. 'constraint:' .. c.id .. ':starts' end
local function running_key(c) return prefix .. 'constraint:' .. c.id .. ':running' end

-- true, false, or a refusal (a constraint's keys not served here)
local function admits(matched)
  for _, c in ipairs(matched) do
    if room[c.id] == nil then
      local refused = refusal(starts_key(c), running_key(c))
      if refused then return refused end
      local fits = true
      if c.limit > 0 and redis.call('ZCOUNT', starts_key(c), '(' .. (t - c.window), '+inf') >= c.limit then
        fits = false
      end
      if fits and c.concurrency > 0 and redis.call('SCARD', running_key(c)) >= c.concurrency then fits = false end
      room[c.id] = fits
    end
    if not room[c.id] then return false end
  end
  return true
end

local from, page = 0, 1
while out[1] < n do
  local members = redis.call('ZRANGE', KEYS[2], from, from + page - 1)
  local gone = 0
  local stop = nil
  for _, m in ipairs(members) do
    if out[1] >= n then break end
    local id = tonumber(m)
    local f, refused = read_job(id)
    if refused then stop = refused break end
    if f[1] ~= 'queued' then
      -- stale bookkeeping (a trimmed record, or not queued): dropped, as the head-of-queue claim does
      redis.call('ZREM', KEYS[2], m)
      gone = gone + 1
    else
      local matched = {}
      for _, c in ipairs(constraints) do
        if selects(c, f[4], f[5]) then matched[#matched + 1] = c end
      end
      local admitted = admits(matched)
      if type(admitted) == 'table' then stop = admitted break end
      if admitted then
        redis.call('ZREM', KEYS[2], m)
        gone = gone + 1
        local held = {}
        for _, c in ipairs(matched) do held[#held + 1] = c.id end
        local attempt = dispatch(m, id, f, held)
        for _, c in ipairs(matched) do
          if c.limit > 0 then
            redis.call('ZREMRANGEBYSCORE', starts_key(c), '-inf', t - c.window)
            redis.call('ZADD', starts_key(c), t, id .. ':' .. attempt)
          end
          redis.call('SADD', running_key(c), id)
          room[c.id] = nil
        end
      end
    end
  end
  if stop then
    if out[1] == 0 then return stop end
    break
  end
  if #members < page then break end
  from = from + #members - gone
  page = math.min(page * 8, page_max)
end
return out
