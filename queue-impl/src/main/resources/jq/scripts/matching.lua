-- Constraint matching inside the claim script: a MessagePack reader that gives every value a canonical text, equal
-- for two values exactly when msgpack-java's Value.equals (what JobMatcher uses in the optimistic claim) calls them
-- equal: integers by value whatever their encoded width, a float never equal to an integer, a string never equal to
-- a binary, arrays in order, maps whatever their entry order. cmsgpack is not used for this because it cannot tell
-- those apart (every number becomes a Lua double, strings and binaries the same Lua string, integers past 2^53 are
-- rounded), so a constraint could match a job here that the Java matcher does not (decision 0040).

local mp_read

-- Byte order, not Lua's '<': redis-server compares Lua strings with strcoll under its LC_COLLATE locale, which can
-- order (and even tie) strings differently from bytes; the ids must sort as Java sorts them (UTF-16 order, the same
-- as UTF-8 bytes below U+E000) and map entries must sort the same way on every server.
local function bytes_less(a, b)
  for k = 1, math.min(#a, #b) do
    local x, y = string.byte(a, k), string.byte(b, k)
    if x ~= y then return x < y end
  end
  return #a < #b
end

local function be_uint(s, i, width)
  local n = 0
  for k = i, i + width - 1 do n = n * 256 + string.byte(s, k) end
  return n
end

-- An integer's canonical text (sign and hexadecimal magnitude, exact at any width) and its Lua number (exact up to
-- 2^53: enough for the limits and windows a definition holds).
local function mp_int(s, i, width, signed)
  local bytes = {string.byte(s, i, i + width - 1)}
  if #bytes < width then error('truncated') end
  local negative = signed and bytes[1] >= 128
  local number = be_uint(s, i, width)
  if negative then
    number = number - 2 ^ (8 * width)
    local carry = 1
    for k = width, 1, -1 do
      local b = 255 - bytes[k] + carry
      if b > 255 then b, carry = b - 256, 1 else carry = 0 end
      bytes[k] = b
    end
  end
  local hex = {}
  for k = 1, width do hex[k] = string.format('%02x', bytes[k]) end
  local magnitude = (string.gsub(table.concat(hex), '^0+', ''))
  if magnitude == '' then return number, 'i0;' end
  return number, (negative and 'i-' or 'i+') .. magnitude .. ';'
end

local nan_seen = 0
local function mp_float(s, i, width)
  local b = {string.byte(s, i, i + width - 1)}
  if #b < width then error('truncated') end
  local sign = b[1] >= 128 and -1 or 1
  local v
  if width == 4 then
    local e = (b[1] % 128) * 2 + math.floor(b[2] / 128)
    local m = ((b[2] % 128) * 256 + b[3]) * 256 + b[4]
    if e == 0 then v = sign * math.ldexp(m, -149)
    elseif e == 255 then v = m == 0 and sign * math.huge or nil
    else v = sign * math.ldexp(m + 8388608, e - 150) end
  else
    local e = (b[1] % 128) * 16 + math.floor(b[2] / 16)
    local m = b[2] % 16
    for k = 3, 8 do m = m * 256 + b[k] end
    if e == 0 then v = sign * math.ldexp(m, -1074)
    elseif e == 2047 then v = m == 0 and sign * math.huge or nil
    else v = sign * math.ldexp(m + 4503599627370496, e - 1075) end
  end
  if v == nil then
    -- NaN equals nothing in Java (==), not even another NaN: give each one its own text
    nan_seen = nan_seen + 1
    return 0, 'fnan' .. nan_seen .. ';'
  end
  if v == 0 then return 0, 'f0;' end -- 0.0 == -0.0 in Java
  return v, 'f' .. string.format('%.17g', v) .. ';'
end

local function mp_raw(s, i, n, tag)
  if i + n - 1 > #s then error('truncated') end
  local data = string.sub(s, i, i + n - 1)
  return data, tag .. n .. ':' .. data, i + n
end

local function mp_array(s, i, n)
  local items, texts = {}, {}
  for k = 1, n do
    local v, c
    v, c, i = mp_read(s, i)
    items[k] = v
    texts[k] = c
  end
  return items, 'a' .. n .. '[' .. table.concat(texts) .. ']', i
end

-- A map's value: its string keys -> {v = value, c = canonical text} (other keys are ignored, as Msgpack.fields
-- does; a repeated key keeps its last value); its text sorts the entries, so entry order does not matter.
local function mp_map(s, i, n)
  local fields, texts = {}, {}
  for k = 1, n do
    local key, kc, v, vc
    key, kc, i = mp_read(s, i)
    v, vc, i = mp_read(s, i)
    if string.sub(kc, 1, 1) == 's' then fields[key] = {v = v, c = vc} end
    texts[k] = kc .. vc
  end
  table.sort(texts, bytes_less)
  return fields, 'm' .. n .. '{' .. table.concat(texts) .. '}', i
end

-- Returns value, canonical text, position after it.
mp_read = function(s, i)
  local b = string.byte(s, i)
  if b == nil then error('truncated') end
  if b < 0x80 then return b, 'i+' .. string.format('%x', b) .. ';', i + 1 end
  if b >= 0xe0 then return b - 256, 'i-' .. string.format('%x', 256 - b) .. ';', i + 1 end
  if b >= 0xa0 and b <= 0xbf then return mp_raw(s, i + 1, b - 0xa0, 's') end
  if b >= 0x90 and b <= 0x9f then return mp_array(s, i + 1, b - 0x90) end
  if b >= 0x80 and b <= 0x8f then return mp_map(s, i + 1, b - 0x80) end
  if b == 0xc0 then return nil, 'n', i + 1 end
  if b == 0xc2 then return false, 'F', i + 1 end
  if b == 0xc3 then return true, 'T', i + 1 end
  if b == 0xcc or b == 0xcd or b == 0xce or b == 0xcf then
    local width = 2 ^ (b - 0xcc)
    local v, c = mp_int(s, i + 1, width, false)
    return v, c, i + 1 + width
  end
  if b == 0xd0 or b == 0xd1 or b == 0xd2 or b == 0xd3 then
    local width = 2 ^ (b - 0xd0)
    local v, c = mp_int(s, i + 1, width, true)
    return v, c, i + 1 + width
  end
  if b == 0xca or b == 0xcb then
    local width = b == 0xca and 4 or 8
    local v, c = mp_float(s, i + 1, width)
    return v, c, i + 1 + width
  end
  if b == 0xd9 or b == 0xda or b == 0xdb then
    local width = 2 ^ (b - 0xd9)
    return mp_raw(s, i + 1 + width, be_uint(s, i + 1, width), 's')
  end
  if b == 0xc4 or b == 0xc5 or b == 0xc6 then
    local width = 2 ^ (b - 0xc4)
    return mp_raw(s, i + 1 + width, be_uint(s, i + 1, width), 'b')
  end
  if b == 0xdc or b == 0xdd then
    local width = b == 0xdc and 2 or 4
    return mp_array(s, i + 1 + width, be_uint(s, i + 1, width))
  end
  if b == 0xde or b == 0xdf then
    local width = b == 0xde and 2 or 4
    return mp_map(s, i + 1 + width, be_uint(s, i + 1, width))
  end
  -- extensions: fixext 1/2/4/8/16, ext 8/16/32 (type byte, then the data): equal when type and data are
  local ext_len = ({[0xd4] = 1, [0xd5] = 2, [0xd6] = 4, [0xd7] = 8, [0xd8] = 16})[b]
  local at = i + 1
  if ext_len == nil then
    local width = ({[0xc7] = 1, [0xc8] = 2, [0xc9] = 4})[b]
    if width == nil then error('not MessagePack') end
    ext_len = be_uint(s, i + 1, width)
    at = i + 1 + width
  end
  local data, _, after = mp_raw(s, at + 1, ext_len, 'x')
  return data, 'x' .. string.byte(s, at) .. ':' .. ext_len .. ':' .. data, after
end

-- The definitions hash (HGETALL: id, MessagePack definition, ...) as constraints sorted by id, the order the
-- optimistic claim records them in: {id, name (or nil), args (key -> canonical text), limit, window, concurrency}.
local function read_constraints(flat)
  local out = {}
  for i = 1, #flat, 2 do
    local def = mp_read(flat[i + 1], 1)
    local c = {id = flat[i], args = {}, nargs = 0, limit = 0, window = 0, concurrency = 0}
    local matcher = def.matcher and def.matcher.v
    if type(matcher) == 'table' then
      if matcher.name and type(matcher.name.v) == 'string' then c.name = matcher.name.v end
      if matcher.argument and type(matcher.argument.v) == 'table' then
        for key, field in pairs(matcher.argument.v) do
          c.args[key] = field.c
          c.nargs = c.nargs + 1
        end
      end
    end
    local rate = def.rate and def.rate.v
    if type(rate) == 'table' then
      c.limit = rate.limit.v
      c.window = rate.window_ms.v
    end
    if def.concurrency and type(def.concurrency.v) == 'number' then c.concurrency = def.concurrency.v end
    out[#out + 1] = c
  end
  table.sort(out, function(a, b) return bytes_less(a.id, b.id) end)
  return out
end

-- Whether constraint c selects a job (its name, its MessagePack argument), as JobMatcher.matches decides.
local function selects(c, name, argument)
  if c.name ~= nil and c.name ~= name then return false end
  if c.nargs == 0 then return true end
  local ok, fields, text = pcall(mp_read, argument or '', 1)
  if not ok or string.sub(text, 1, 1) ~= 'm' then return false end
  for key, wanted in pairs(c.args) do
    if fields[key] == nil or fields[key].c ~= wanted then return false end
  end
  return true
end

-- The held-constraints field: a MessagePack array of the ids (JobRecord.encodeHeld's bytes).
local function mp_str_array(ids)
  local n = #ids
  local head = n < 16 and string.char(0x90 + n) or ('\220' .. be_bytes(n, 2))
  local parts = {head}
  for _, id in ipairs(ids) do parts[#parts + 1] = mp_str(id) end
  return table.concat(parts)
end
