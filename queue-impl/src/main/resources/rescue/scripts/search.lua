-- Search for up to n tasks for one worker, each as RescueEngine.search chooses: the oldest "uni" task addressed to
-- it, else the oldest "all" task it has not had (from its cursor), else the oldest available "any" task. A task
-- whose Root exists is discarded on the way (removed, no gate or sync effects). Owning writes worker, expiry and
-- cycles and the owned entry; an "all" task is only marked delivered to this worker.
-- KEYS[1] available, KEYS[2] broadcast, KEYS[3] owned, KEYS[4] retention
-- ARGV[1] prefix, ARGV[2] now, ARGV[3] the wake command (unused: searching makes no work), ARGV[4] worker, ARGV[5]
-- lease (ms), ARGV[6] n, ARGV[7] broadcast page
-- Returns {count, then per task: its field count, then its fields and values}.
local refused = migrating()
if refused then return refused end
local now = now_ms(ARGV[2])
local worker, lease, n, page_size = ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local mine = P .. 'uni:' .. worker
local cursor_key = P .. 'cursor:' .. worker
local expiry = now + lease
local expiry_label = format_time(expiry) -- every task owned by this call has the same

-- The head of a state set, read a page at a time: nothing this script does puts an entry before the ones it read
-- (owning, discarding and dropping only take the entry being handled out), so the page is what successive reads of
-- the head would give. want: how many tasks are still wanted (the size of a new page). Nil once the set is empty.
local function heads(zset)
  local page, at, exhausted = {}, 1, false
  return function(want)
    if exhausted then return nil end
    if at > #page then
      page, at = redis.call('ZRANGE', zset, 0, want - 1), 1
      if #page == 0 then
        exhausted = true
        return nil
      end
    end
    at = at + 1
    return page[at - 1]
  end
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
  update(id, t, 'core', {[WORKER] = worker, [EXPIRY] = expiry_label,
    [CYCLES] = tostring((tonumber(t.core[CYCLES]) or 0) + 1)})
  redis.call('ZREM', from, id)
  if method(t) ~= 'any' then redis.call('ZREM', KEYS[4], id) end -- only addressed tasks have a retention entry
  redis.call('ZADD', KEYS[3], expiry, id)
  return t
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

local next_mine, next_available = heads(mine), heads(KEYS[1])
local broadcasts_left = true -- none undelivered stays none: this script adds no "all" task
local out = {0}
while out[1] < n do
  local found
  local id = next_mine(n - out[1])
  if id then
    found = own(id, mine)
  else
    id = broadcasts_left and first_undelivered()
    if id then
      found = deliver(id)
    else
      broadcasts_left = false
      id = next_available(n - out[1])
      if not id then break end
      found = own(id, KEYS[1])
    end
  end
  if found then
    local flat = flatten(found)
    out[1] = out[1] + 1
    local at = #out + 1
    out[at] = #flat / 2
    for j = 1, #flat do out[at + j] = flat[j] end
  end
end
return out
