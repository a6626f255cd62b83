-- rescue's task store for the scripts: the same hash and index layout as TaskStore.java (docs/contracts/rescue.md),
-- the README's timestamp format, label matching and Root suppression. ARGV[1] is always the key prefix
-- "{rescue:<queue>}:", ARGV[2] the time ('' = Redis's TIME), ARGV[3] the wake command (see wake()). Every key of a
-- queue carries the prefix's hash tag, so the keys built here are in the slot of the declared ones.
-- The hot path (create -> search -> delete of a plain task) is kept lean on purpose: luaj interprets this on the
-- simulator several times slower than redis-server's C Lua, so every loop over bytes, copy of a task and rebuilt
-- string shows in a queue's throughput (decision 0039).
local P = ARGV[1]
local SECTIONS = {'core', 'cron', 'gate', 'meta', 'node', 'root', 'sync'}
local OBJECT, WORKER, EXPIRY, CYCLES = 'task.rescue.io/object', 'task.rescue.io/worker', 'task.rescue.io/expiry',
  'task.rescue.io/cycles'
local ORIGIN, TICK_NEXT, METHOD = 'task.rescue.io/origin', 'time.rescue.io/tick+1', 'addr.rescue.io/method'

-- While the queue's slot migrates, a Redis Cluster node refuses to a script every key it does not hold (moved already,
-- or not created yet: a new task, a worker's first index entry), reads and writes alike, and the script stops there
-- with what it wrote so far kept. A transition here writes keys built from labels and ids, many of them new, so rather
-- than probing each before its first write, every transition asks first whether the slot is migrating on this node:
-- EXISTS of a key no transition ever writes is refused exactly then (decision 0029). Returns the refusal (an error
-- table) for the script to return, written nothing, so the client waits for the migration and runs it again (decision
-- 0023); nil on a stable slot, and always on one server.
local function migrating()
  local answer = redis.pcall('EXISTS', P .. 'migration-probe')
  if type(answer) == 'table' and answer.err then return answer end
  return nil
end

-- Tells waiting runtimes that there may be work: PUBLISH on the queue's wake channel, or SPUBLISH when the queue's
-- wake is sharded (RescueOptions.withShardedWake). The command comes as an argument rather than from two variants of
-- every script, so each script has one text and one SHA whichever the option, and one cached copy on the server.
local function wake()
  redis.call(ARGV[3], P .. 'wake', '1')
end

local function now_ms(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Index keys carry a label key's length as Java counts it (UTF-16 units), so they name the same keys as TaskStore.
-- A key without a byte above 127 (nearly all) is as long as its bytes; others are counted by their lead bytes (a
-- four-byte sequence is two UTF-16 units). Counts are kept for the rest of the call: a key recurs in one transition.
local lengths = {}
local function utf16_length(s)
  local n = lengths[s]
  if n then return n end
  if not string.find(s, '[\128-\255]') then
    n = #s
  else
    n = 0
    for i = 1, #s do
      local b = string.byte(s, i)
      if b < 0x80 or b >= 0xC0 then n = n + 1 end
      if b >= 0xF0 then n = n + 1 end
    end
  end
  lengths[s] = n
  return n
end

local function label_index(section, k, v)
  return P .. 'idx:' .. section .. ':' .. utf16_length(k) .. ':' .. k .. '=' .. v
end

local function key_index(section, k)
  return P .. 'key:' .. section .. ':' .. utf16_length(k) .. ':' .. k
end

-- Both index keys of a label (the label's set, the label key's set), its length counted once.
local function index_keys(section, k, v)
  local infix = section .. ':' .. utf16_length(k) .. ':' .. k
  return P .. 'idx:' .. infix .. '=' .. v, P .. 'key:' .. infix
end

local function task_key(id)
  return P .. 'task:' .. id
end

-- Cron.format: yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z' (microseconds; ours are whole milliseconds).
local function format_time(ms)
  local days = math.floor(ms / 86400000)
  local rest = ms - days * 86400000
  local y, m, d = civil(days)
  return string.format('%04d-%02d-%02dT%02d:%02d:%02d.%03d000Z', y, m, d, math.floor(rest / 3600000),
    math.floor(rest % 3600000 / 60000), math.floor(rest % 60000 / 1000), rest % 1000)
end

local function parse_time(text)
  local y, mo, d, h, mi, s, frac = string.match(text, '^(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)%.(%d+)Z$')
  local micros = tonumber(frac) * 10 ^ (6 - #frac)
  return days_of(tonumber(y), tonumber(mo), tonumber(d)) * 86400000 + tonumber(h) * 3600000 + tonumber(mi) * 60000
    + tonumber(s) * 1000 + math.floor(micros / 1000)
end

local function empty()
  return {core = {}, cron = {}, gate = {}, meta = {}, node = {}, root = {}, sync = {}}
end

local function copy(t)
  local c = empty()
  for s, labels in pairs(t) do
    local into = c[s]
    for k, v in pairs(labels) do into[k] = v end
  end
  return c
end

local function is_empty(labels)
  return next(labels) == nil
end

-- A task from hash fields "<section>:<label key>" (field, value, field, value, ...).
local function decode(flat, from, to)
  local t = empty()
  for i = from or 1, to or #flat, 2 do
    local section, k = string.match(flat[i], '^([^:]*):(.*)$')
    t[section][k] = flat[i + 1]
  end
  return t
end

-- The task as hash fields and values (field, value, ...): a reply, in no particular order.
local function flatten(t)
  local out = {}
  for s, labels in pairs(t) do
    for k, v in pairs(labels) do
      out[#out + 1] = s .. ':' .. k
      out[#out + 1] = v
    end
  end
  return out
end

local function read(id)
  local flat = redis.call('HGETALL', task_key(id))
  if #flat == 0 then return nil end
  return decode(flat)
end

local function is_template(t)
  if next(t.cron) ~= nil then return true end
  if next(t.gate) == nil then return false end
  for _, v in pairs(t.gate) do
    if v == 'trigger' then return false end
  end
  return true
end

local function method(t)
  return t.node[METHOD] or 'any'
end

-- Stores new over old (nil: a new task), keeping the label indexes in step (TaskStore.write): only the labels that
-- differ touch the hash and the indexes.
local function write(id, old, new)
  if not old then -- a new task: every label is added
    local fields = {}
    for s, labels in pairs(new) do
      for k, v in pairs(labels) do
        fields[#fields + 1] = s .. ':' .. k
        fields[#fields + 1] = v
        local label, key = index_keys(s, k, v)
        redis.call('SADD', label, id)
        redis.call('SADD', key, id)
      end
    end
    redis.call('HSET', task_key(id), unpack(fields))
    redis.call('SADD', P .. 'all', id)
    return
  end
  local gone, changed = {}, {}
  for _, s in ipairs(SECTIONS) do
    local was = old[s]
    local is = new[s]
    for k, v in pairs(was) do
      local now = is[k]
      if now ~= v then
        redis.call('SREM', label_index(s, k, v), id)
        if now == nil then
          gone[#gone + 1] = s .. ':' .. k
          redis.call('SREM', key_index(s, k), id)
        end
      end
    end
    for k, v in pairs(is) do
      local prior = was[k]
      if prior ~= v then
        changed[#changed + 1] = s .. ':' .. k
        changed[#changed + 1] = v
        redis.call('SADD', label_index(s, k, v), id)
        if prior == nil then redis.call('SADD', key_index(s, k), id) end
      end
    end
  end
  local h = task_key(id)
  if #gone > 0 then redis.call('HDEL', h, unpack(gone)) end
  if #changed > 0 then redis.call('HSET', h, unpack(changed)) end
end

-- Changes labels of one section of a stored task in place (value false: the label goes), with the hash and indexes:
-- write() for the transitions that touch a few labels (owning, revoking, renewing, moving ticks), without a copy.
local function update(id, t, section, labels)
  local current = t[section]
  local gone, changed = {}, {}
  for k, v in pairs(labels) do
    local was = current[k]
    if v == false then v = nil end
    if was ~= v then
      if was ~= nil then redis.call('SREM', label_index(section, k, was), id) end
      if v == nil then
        gone[#gone + 1] = section .. ':' .. k
        redis.call('SREM', key_index(section, k), id)
      else
        changed[#changed + 1] = section .. ':' .. k
        changed[#changed + 1] = v
        redis.call('SADD', label_index(section, k, v), id)
        if was == nil then redis.call('SADD', key_index(section, k), id) end
      end
      current[k] = v
    end
  end
  local h = task_key(id)
  if #gone > 0 then redis.call('HDEL', h, unpack(gone)) end
  if #changed > 0 then redis.call('HSET', h, unpack(changed)) end
end

-- Removes the task, its index entries and its membership in the state sets it can be in (TaskStore.remove removes
-- it from all of them; these are the ones place(), owning and revoking put a task of its kind in).
local function remove(id, old)
  redis.call('DEL', task_key(id), P .. 'seen:' .. id)
  redis.call('SREM', P .. 'all', id)
  for s, labels in pairs(old) do
    for k, v in pairs(labels) do
      local label, key = index_keys(s, k, v)
      redis.call('SREM', label, id)
      redis.call('SREM', key, id)
    end
  end
  if next(old.cron) ~= nil then
    redis.call('ZREM', P .. 'cron', id)
    return
  end
  if is_template(old) then return end -- a gate template is in no state set
  local m = method(old)
  if m == 'all' then
    redis.call('ZREM', P .. 'broadcast', id)
  elseif old.core[WORKER] then
    redis.call('ZREM', P .. 'owned', id)
  elseif m == 'any' then
    redis.call('ZREM', P .. 'available', id)
  end
  if m == 'uni' then redis.call('ZREM', P .. 'uni:' .. old.node[WORKER], id) end
  if m ~= 'any' then redis.call('ZREM', P .. 'retention', id) end
end

-- Puts an unowned task where its kind is found (TaskStore.place).
local function place(id, t)
  if next(t.cron) ~= nil then
    redis.call('ZADD', P .. 'cron', parse_time(t.cron[TICK_NEXT]), id)
  elseif is_template(t) then
    return
  else
    local m = method(t)
    if m == 'all' then
      redis.call('ZADD', P .. 'broadcast', id, id)
    elseif m == 'uni' then
      redis.call('ZADD', P .. 'uni:' .. t.node[WORKER], id, id)
    else
      redis.call('ZADD', P .. 'available', id, id)
    end
  end
end

local function matches_one(k, v, labels)
  if k ~= '*' then
    local actual = labels[k]
    return actual ~= nil and (v == '*' or v == actual)
  end
  if v == '*' then return not is_empty(labels) end
  for _, x in pairs(labels) do
    if x == v then return true end
  end
  return false
end

local function matches(query, labels)
  for k, v in pairs(query) do
    if not matches_one(k, v, labels) then return false end
  end
  return true
end

-- Whether a task (not a template) other than self has Meta matching root: the index sets narrow the candidates.
local function root_exists(root, self)
  local narrowing = {}
  for k, v in pairs(root) do
    if k ~= '*' then narrowing[#narrowing + 1] = v == '*' and key_index('meta', k) or label_index('meta', k, v) end
  end
  if #narrowing == 0 then narrowing[1] = P .. 'all' end
  for _, id in ipairs(redis.call('SINTER', unpack(narrowing))) do
    if id ~= self then
      local t = read(id)
      if t and not is_template(t) and matches(root, t.meta) then return true end
    end
  end
  return false
end

local function suppressed_by_root(t, self)
  if next(t.root) == nil or is_template(t) then return false end
  return root_exists(t.root, self)
end

-- Adds a new task with the next id unless its Root exists; addressed tasks start their retention (Templates.insert).
-- now is a function: a plain task needs no time, so a create reads TIME only for a task that does.
-- Returns the id, or nil when Root suppressed it.
local function insert_new(t, now, retention)
  if suppressed_by_root(t, nil) then return nil end
  local id = tostring(redis.call('INCR', P .. 'seq'))
  t.core[OBJECT] = id
  write(id, nil, t)
  place(id, t)
  if not is_template(t) then
    local m = method(t)
    if m == 'all' then redis.call('SET', P .. 'broadcast:last', id) end
    if m ~= 'any' then redis.call('ZADD', P .. 'retention', now() + retention, id) end
  end
  return id
end

-- The template's next task (Meta, Sync, Root, Node; Core origin = the template), unless its Root exists
-- (Templates.emit). The sections are shared with the template, which nothing here changes. Returns the id or nil.
local function emit(template_id, template, now, retention)
  local t = {core = {[ORIGIN] = template_id}, cron = {}, gate = {}, meta = template.meta, node = template.node,
    root = template.root, sync = template.sync}
  return insert_new(t, now, retention)
end

-- The caller's copy must be the current ownership: this worker, the same cycle, not expired. Nil when it is, else
-- the stored task (flat) for the error message.
local function owner_problem(stored, worker, caller_worker, caller_cycles, now)
  local expiry = stored.core[EXPIRY]
  if stored.core[WORKER] == worker and caller_worker == worker and stored.core[CYCLES] == caller_cycles
    and expiry ~= nil and parse_time(expiry) > now then
    return nil
  end
  return flatten(stored)
end
