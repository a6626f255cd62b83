-- The scheduler: due jobs (score <= now in epoch seconds) leave scheduled for the head of their queue, with a wake;
-- bytes that are no job go to the dead-letter list. Atomic, so a job is moved exactly once however many run it.
-- KEYS[1] scheduled, KEYS[2] conveyor:dead-letters; ARGV[1] key prefix, ARGV[2] now (ms, '' = TIME),
-- ARGV[3] at most this many, ARGV[4] the wake command (PUBLISH or SPUBLISH). Returns how many it moved; or, when a
-- migrating slot refused a queue before anything was moved, that refusal (the client waits for the migration and
-- runs the scheduler again: decision 0023).
local t = now_ms(ARGV[2])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t / 1000, 'LIMIT', 0, tonumber(ARGV[3]))
local moved = 0
for _, job in ipairs(due) do
  local fs = job_fields(job)
  local queue = fs and field(fs, 3)
  -- a migrating slot refuses a queue not on this node: stop before this job's first write
  local refused = queue ~= nil and queue ~= '' and refusal(ARGV[1] .. queue)
  if refused then
    if moved == 0 then return refused end
    break -- the jobs moved so far stay moved; the next round goes on
  end
  redis.call('ZREM', KEYS[1], job)
  moved = moved + 1
  if queue == nil or queue == '' then
    redis.call('LPUSH', KEYS[2], job)
  else
    redis.call('LPUSH', ARGV[1] .. queue, job)
    redis.call(ARGV[4], ARGV[1] .. 'conveyor:wake:' .. queue, queue)
  end
end
return moved
