#!/usr/bin/env bash
# Before and after a change, in one run: redis-benchmark against a real redis-server and two simulator jars (an older
# build and this one), alternating between the three for every test, so that all figures share the machine's moment.
# Prints ops/s of each and both ratios to redis-server, with their geometric means (decision 0032).
#
#   bench/redis-benchmark-before-after.sh /path/to/older/redsim-simulator.jar
#   REQUESTS=200000 ROUNDS=3 SIM_JAVA_OPTS=-XX:+UseSerialGC bench/redis-benchmark-before-after.sh old.jar
set -euo pipefail
cd "$(dirname "$0")/.."
BEFORE_JAR=${1:?usage: $0 OLDER_SIMULATOR_JAR}
REQUESTS=${REQUESTS:-100000}
CLIENTS=${CLIENTS:-50}
ROUNDS=${ROUNDS:-2}
TESTS=${TESTS:-ping_mbulk,set,get,incr,lpush,rpush,lpop,rpop,sadd,hset,spop,zadd,zpopmin,lrange_100,mset}

source bench/servers.sh   # redis-server and this build's simulator (SIM_PORT)
BEFORE_PORT=$(free_port)
java ${SIM_JAVA_OPTS:-} -jar "$BEFORE_JAR" --port "$BEFORE_PORT" > "$WORK/before.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do redis-cli -p "$BEFORE_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

echo "redis-server on $REDIS_PORT, simulator before ($BEFORE_JAR) on $BEFORE_PORT, after on $SIM_PORT;" \
     "$REQUESTS requests x ${TESTS//,/ }; $CLIENTS clients; $ROUNDS rounds; $(nproc) cores"
for port in "$BEFORE_PORT" "$SIM_PORT"; do   # warm both JITs, as long-running servers would be
  redis-benchmark -p "$port" -n "$REQUESTS" -c "$CLIENTS" -t "$TESTS" -q > /dev/null
  redis-benchmark -p "$port" -n "$REQUESTS" -c "$CLIENTS" -P 16 -t "$TESTS" -q > /dev/null
done
for round in $(seq 1 "$ROUNDS"); do
  for pipeline in 1 16; do
    for test in ${TESTS//,/ }; do
      for target in redis before after; do
        port=$REDIS_PORT; [ "$target" = before ] && port=$BEFORE_PORT; [ "$target" = after ] && port=$SIM_PORT
        redis-cli -p "$port" flushall >/dev/null
        redis-benchmark -p "$port" -n "$REQUESTS" -c "$CLIENTS" -P "$pipeline" -t "$test" --csv \
          | sed "s/^/$round,$pipeline,$target,/" >> "$WORK/results.csv"
      done
    done
  done
done

python3 - "$WORK/results.csv" <<'PY'
import csv, math, sys
best, order = {}, []
for row in csv.reader(open(sys.argv[1])):
    rnd, pipeline, target, test = row[:4]
    if test == "test":
        continue
    if (pipeline, test) not in order:
        order.append((pipeline, test))
    key = (pipeline, test, target)
    best[key] = max(best.get(key, 0.0), float(row[4]))  # best of the rounds, for all three alike
for pipeline in ("1", "16"):
    print("\n" + ("no pipelining" if pipeline == "1" else "-P 16"))
    print(f"{'test':<36}{'redis':>11}{'before':>11}{'after':>11}{'before/r':>9}{'after/r':>9}")
    logs_before, logs_after = [], []
    for p, test in order:
        if p != pipeline:
            continue
        r, b, a = (best[(pipeline, test, t)] for t in ("redis", "before", "after"))
        logs_before.append(math.log(b / r))
        logs_after.append(math.log(a / r))
        print(f"{test[:35]:<36}{r:>11,.0f}{b:>11,.0f}{a:>11,.0f}{b / r:>9.2f}{a / r:>9.2f}")
    mean = lambda logs: math.exp(sum(logs) / len(logs))
    print(f"{'geometric mean':<69}{mean(logs_before):>9.2f}{mean(logs_after):>9.2f}")
PY
