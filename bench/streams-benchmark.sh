#!/usr/bin/env bash
# Stream commands on the simulator against a real redis-server, side by side in one run, with redis-benchmark's
# custom-command mode: XADD (plain, and trimmed with MAXLEN ~ as event logs do), XLEN, XRANGE and XREVRANGE of a
# few entries, XREADGROUP handing out new entries (">"), and a consumer re-reading its pending entries (history).
# Each test runs on both servers, without pipelining and with -P 16; the table prints ops/s of both, the ratio
# simulator/redis and the geometric mean (best of the rounds for both alike).
#
#   bench/streams-benchmark.sh                # defaults: 100000 requests per test, 50 clients, 2 rounds
#   REQUESTS=200000 ROUNDS=3 bench/streams-benchmark.sh
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-100000}
CLIENTS=${CLIENTS:-50}
ROUNDS=${ROUNDS:-2}

source bench/servers.sh
set -f # the commands hold "*", which is no file pattern here

# name|command: run in this order on a flushed server, so XADD fills what the reads after it read
TESTS=(
  "xadd|XADD bench:s * field value"
  "xadd maxlen ~ 1000|XADD bench:log MAXLEN ~ 1000 * event completed jobId 12345"
  "xlen|XLEN bench:s"
  "xrange count 10|XRANGE bench:log - + COUNT 10"
  "xrevrange count 1|XREVRANGE bench:log + - COUNT 1"
  "xreadgroup > count 1|XREADGROUP GROUP workers alice COUNT 1 STREAMS bench:s >"
  "xreadgroup history 10|XREADGROUP GROUP workers alice COUNT 10 STREAMS bench:s 0"
)

run_all() { # port pipeline round target
  local port=$1 pipeline=$2 round=$3 target=$4
  redis-cli -p "$port" flushall >/dev/null
  redis-cli -p "$port" XGROUP CREATE bench:s workers 0 MKSTREAM >/dev/null
  for test in "${TESTS[@]}"; do
    local name=${test%%|*} command=${test#*|}
    # shellcheck disable=SC2086 # the command is words
    rps=$(redis-benchmark -p "$port" -n "$REQUESTS" -c "$CLIENTS" -P "$pipeline" --csv $command \
      | tail -1 | cut -d, -f2 | tr -d '"')
    echo "$round,$pipeline,$target,$name,$rps" >> "$WORK/results.csv"
  done
}

echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on $REDIS_PORT, simulator on $SIM_PORT;" \
     "$REQUESTS requests a test; $CLIENTS clients; $ROUNDS rounds; $(nproc) cores"
# Warm the simulator's JIT before measuring, as a long-running server would be.
run_all "$SIM_PORT" 1 0 warmup
run_all "$SIM_PORT" 16 0 warmup
: > "$WORK/results.csv"

for round in $(seq 1 "$ROUNDS"); do
  for pipeline in 1 16; do
    for target in redis sim; do
      port=$REDIS_PORT; [ "$target" = sim ] && port=$SIM_PORT
      run_all "$port" "$pipeline" "$round" "$target"
    done
  done
done

python3 - "$WORK/results.csv" "${TESTS[@]}" <<'PY'
import csv, math, sys
order = [t.split("|")[0] for t in sys.argv[2:]]
best = {}
for rnd, pipeline, target, test, rps in csv.reader(open(sys.argv[1])):
    key = (pipeline, test, target)
    best[key] = max(best.get(key, 0.0), float(rps))  # best of the rounds, for both servers alike
for pipeline in ("1", "16"):
    label = "no pipelining" if pipeline == "1" else "-P 16"
    print(f"\n{label}")
    print(f"{'test':<26}{'redis ops/s':>14}{'simulator ops/s':>18}{'ratio':>8}")
    logs = []
    for test in order:
        r, s = best[(pipeline, test, "redis")], best[(pipeline, test, "sim")]
        logs.append(math.log(s / r))
        print(f"{test:<26}{r:>14,.0f}{s:>18,.0f}{s / r:>8.2f}")
    print(f"{'geometric mean':<58}{math.exp(sum(logs) / len(logs)):>8.2f}")
PY
