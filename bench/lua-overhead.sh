#!/usr/bin/env bash
# The cost of Lua: a command sent plainly vs the same command inside a one-command script (EVAL and EVALSHA),
# on a real redis-server and on the simulator, side by side in one run with redis-benchmark.
# Prints ops/s, the script/plain ratio on each server (the Lua overhead), and simulator/redis for each form.
#
#   bench/lua-overhead.sh                    # defaults: 100000 requests per test, 50 clients, 2 rounds
#   REQUESTS=200000 PIPELINE=16 bench/lua-overhead.sh
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-100000}
CLIENTS=${CLIENTS:-50}
ROUNDS=${ROUNDS:-2}
PIPELINE=${PIPELINE:-1}

source bench/servers.sh

SET_SCRIPT="return redis.call('SET', KEYS[1], ARGV[1])"
INCR_SCRIPT="return redis.call('INCR', KEYS[1])"
GET_SCRIPT="return redis.call('GET', KEYS[1])"
# Each case: a name, then the command line redis-benchmark sends (__SHA_x__ is replaced by the loaded script's SHA).
CASES=(
  "SET|SET key:bench value"
  "EVAL SET|EVAL|$SET_SCRIPT|1|key:bench|value"
  "EVALSHA SET|EVALSHA|__SHA_SET__|1|key:bench|value"
  "INCR|INCR counter:bench"
  "EVAL INCR|EVAL|$INCR_SCRIPT|1|counter:bench"
  "EVALSHA INCR|EVALSHA|__SHA_INCR__|1|counter:bench"
  "GET|GET key:bench"
  "EVAL GET|EVAL|$GET_SCRIPT|1|key:bench"
  "EVALSHA GET|EVALSHA|__SHA_GET__|1|key:bench"
)

echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on $REDIS_PORT, simulator on $SIM_PORT;" \
     "$REQUESTS requests per case; $CLIENTS clients; pipeline $PIPELINE; $ROUNDS rounds; $(nproc) cores"

run_case() { # port, case -> ops/s
  local port=$1 spec=$2 args
  local sha_set sha_incr sha_get
  sha_set=$(redis-cli -p "$port" script load "$SET_SCRIPT")
  sha_incr=$(redis-cli -p "$port" script load "$INCR_SCRIPT")
  sha_get=$(redis-cli -p "$port" script load "$GET_SCRIPT")
  spec=${spec//__SHA_SET__/$sha_set}; spec=${spec//__SHA_INCR__/$sha_incr}; spec=${spec//__SHA_GET__/$sha_get}
  if [[ "$spec" == *"|"* ]]; then IFS='|' read -r -a args <<< "$spec"; else read -r -a args <<< "$spec"; fi
  redis-benchmark -p "$port" -n "$REQUESTS" -c "$CLIENTS" -P "$PIPELINE" --csv "${args[@]}" \
    | tail -n 1 | awk -F'","' '{print $2}'
}

# Warm the simulator's JIT (and the Lua compiler's caches) before measuring, as a long-running server would be.
for entry in "${CASES[@]}"; do run_case "$SIM_PORT" "${entry#*|}" > /dev/null; done

for round in $(seq 1 "$ROUNDS"); do
  for entry in "${CASES[@]}"; do
    name=${entry%%|*}
    for target in redis sim; do
      port=$REDIS_PORT; [ "$target" = sim ] && port=$SIM_PORT
      echo "$name,$target,$(run_case "$port" "${entry#*|}")" >> "$WORK/results.csv"
    done
  done
done

python3 - "$WORK/results.csv" <<'PY'
import csv, sys
best = {}
order = []
for name, target, rps in csv.reader(open(sys.argv[1])):
    if name not in order:
        order.append(name)
    best[(name, target)] = max(best.get((name, target), 0.0), float(rps))  # best of the rounds, both alike
print(f"\n{'case':<16}{'redis ops/s':>14}{'vs plain':>10}{'simulator ops/s':>18}{'vs plain':>10}{'sim/redis':>11}")
for name in order:
    plain = name.split()[-1]
    r, s = best[(name, "redis")], best[(name, "sim")]
    print(f"{name:<16}{r:>14,.0f}{r / best[(plain, 'redis')]:>10.2f}{s:>18,.0f}{s / best[(plain, 'sim')]:>10.2f}{s / r:>11.2f}")
print("\nvs plain: ops/s of the script form / ops/s of the plain command on the same server (1.00 = no Lua overhead)")
PY
