-- Search for up to n tasks for one worker, each as RescueEngine.search chooses: the oldest "uni" task addressed to
-- it, else the oldest "all" task it has not had (from its cursor), else the oldest available "any" task. A task
-- whose Root exists is discarded on the way (removed, no gate or sync effects). Owning writes worker, expiry and
-- cycles and the owned entry; an "all" task is only marked delivered to this worker.
-- KEYS[1] available, KEYS[2] broadcast, KEYS[3] owned, KEYS[4] retention
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] worker, ARGV[4] lease (ms), ARGV[5] n, ARGV[6] broadcast page
-- Returns {count, then per task: its field count, then its fields and values}.
local refused = migrating()
if refused then return refused end
local now = now_ms(ARGV[2])
local worker, lease, n, page_size = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local mine = P .. 'uni:' .. worker
local cursor_key = P .. 'cursor:' .. worker

local function head(zset)
  local first = redis.call('ZRANGE', zset, 0, 0)
  return first[1]
end

-- The oldest "all" task this worker has not had; the cursor moves past pages it had all of.
local function first_undelivered()
  while true do
    local cursor = redis.call('GET', cursor_key)
    local page = redis.call('ZRANGEBYSCORE', KEYS[2], cursor and '(' .. cursor or '-inf', '+inf', 'LIMIT', 0,
      page_size)
    if #page == 0 then return nil end
    for _, id in ipairs(page) do
      if redis.call('SISMEMBER', P .. 'seen:' .. id, worker) == 0 then return id end
    end
    redis.call('SET', cursor_key, page[#page])
  end
end

-- The task owned by this worker, false when Root discarded it (or its record is gone: the entry is dropped).
local function own(id, from)
  local t = read(id)
  if not t then
    redis.call('ZREM', from, id)
    return false
  end
  if suppressed_by_root(t, id) then
    remove(id, t)
    return false
  end
  local owned = copy(t)
  owned.core[WORKER] = worker
  owned.core[EXPIRY] = format_time(now + lease)
  owned.core[CYCLES] = tostring((tonumber(t.core[CYCLES]) or 0) + 1)
  write(id, t, owned)
  redis.call('ZREM', from, id)
  redis.call('ZREM', KEYS[4], id)
  redis.call('ZADD', KEYS[3], now + lease, id)
  return owned
end

local function deliver(id)
  local t = read(id)
  if not t then
    redis.call('ZREM', KEYS[2], id)
    return false
  end
  if suppressed_by_root(t, id) then
    remove(id, t)
    return false
  end
  redis.call('SADD', P .. 'seen:' .. id, worker)
  redis.call('SET', cursor_key, id)
  t.core[WORKER] = worker
  return t
end

local out = {0}
while out[1] < n do
  local found
  local id = head(mine)
  if id then
    found = own(id, mine)
  else
    id = first_undelivered()
    if id then
      found = deliver(id)
    else
      id = head(KEYS[1])
      if not id then break end
      found = own(id, KEYS[1])
    end
  end
  if found then
    local flat = flatten(found)
    out[1] = out[1] + 1
    out[#out + 1] = #flat / 2
    for _, x in ipairs(flat) do out[#out + 1] = x end
  end
end
return out
