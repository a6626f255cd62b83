-- Take job id's kept result once: read and deleted in one step (two readers never both get it), and nothing once
-- its retention has passed (even before the sweep dropped it); the job's state comes with it.
-- KEYS[1] results
-- ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME), ARGV[3] id
-- Returns {1 and the result, or 0 and ''; the job's state or nil when there is no record}.
local prefix = ARGV[1]
local t = now_ms(ARGV[2])
local id = tonumber(ARGV[3])
local result_key = prefix .. 'result:' .. id
local refused = refusal(result_key, prefix .. 'job:' .. id)
if refused then return refused end
local m = member(id)
local result = redis.call('GET', result_key)
local expires = redis.call('ZSCORE', KEYS[1], m)
redis.call('DEL', result_key)
redis.call('ZREM', KEYS[1], m)
local state = redis.call('HGET', prefix .. 'job:' .. id, 'state')
if result and expires and tonumber(expires) > t then return {1, result, state} end
return {0, '', state}
