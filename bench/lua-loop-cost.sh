#!/usr/bin/env bash
# What one Lua instruction costs on each server (decision 0045): five pure-Lua loops (2,000 iterations, no
# redis.call) and one of a single iteration (what a script call costs around its Lua), run by EVALSHA on
# redis-server and on the simulator jar; server time per call from INFO commandstats (usec_per_call) after a
# warm-up of the same number of calls. Each loop runs on the simulator's
# engine thread (about 0.1-0.8 ms a call, inside the 10 ms budget of decision 0030), so the figure is luaj's
# interpreter with the instruction hook against Lua 5.1 in C. Run it under the build lock:
#   flock /tmp/redsim-mvn.lock bench/lua-loop-cost.sh        # CALLS=2000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${CALLS:-2000}
source bench/servers.sh

declare -A LOOPS=(
  [once]='local s = 0 for i = 1, 1 do s = s + i end return s'
  [arith]='local s = 0 for i = 1, 2000 do s = s + i % 7 end return s'
  [concat]='local s = 0 local a = "ab" for i = 1, 2000 do local x = a .. "cd" s = s + #x end return s'
  [numconcat]='local s = 0 for i = 1, 2000 do local x = "k" .. i s = s + #x end return s'
  [call]='local function f(a) return a + 1 end local s = 0 for i = 1, 2000 do s = f(s) end return s'
  [table]='local t = {} local s = 0 for i = 1, 2000 do t["k"] = i s = s + t["k"] end return s'
)
usec() { # port sha
  redis-benchmark -p "$1" -n "$CALLS" -c 1 -q evalsha "$2" 0 > /dev/null
  redis-cli -p "$1" config resetstat > /dev/null
  redis-benchmark -p "$1" -n "$CALLS" -c 1 -q evalsha "$2" 0 > /dev/null
  redis-cli -p "$1" info commandstats | grep '^cmdstat_evalsha:' | sed 's/.*usec_per_call=\([0-9.]*\).*/\1/'
}
printf '%-10s %12s %12s %7s\n' loop 'redis us' 'sim us' 'sim/redis'
for name in once arith concat numconcat call table; do
  r_sha=$(redis-cli -p "$REDIS_PORT" script load "${LOOPS[$name]}")
  s_sha=$(redis-cli -p "$SIM_PORT" script load "${LOOPS[$name]}")
  r=$(usec "$REDIS_PORT" "$r_sha")
  s=$(usec "$SIM_PORT" "$s_sha")
  printf '%-10s %12s %12s %7.2f\n' "$name" "$r" "$s" "$(echo "$s / $r" | bc -l)"
done
