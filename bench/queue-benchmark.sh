#!/usr/bin/env bash
# The queues' put -> claim -> finish loop (issue 19), Conveyor, thoonk, rescue and JQ (over HTTP: the master in the
# bench JVM, clients over HTTP with the batch endpoints), W workers and batches of B, on a real
# redis-server and on the simulator (each its own process, started by servers.sh), the same client code
# (bench/QueueBenchmark.java over queue-impl), alternating in one run. Prints jobs/s of both, the ratio
# simulator/redis, the commands and round trips the client sent per job, and the commands each server executed per
# job (calls inside scripts included). TRANSITIONS=optimistic gives the WATCH/MULTI forms (the code before issue 19).
# SIM_JAVA_OPTS is passed to the simulator's JVM (e.g. a flight recording, for a profile).
#
#   bench/queue-benchmark.sh                                   # defaults below
#   WORKERS=1,4,8 BATCH=1,10,50 JOBS=40000 ROUNDS=3 bench/queue-benchmark.sh
#   CONTRACTS=jq WORKERS=4 BATCH=1,50 bench/queue-benchmark.sh   # one contract
#   flock /tmp/redsim-mvn.lock env SKIP_BUILD=1 ... bench/queue-benchmark.sh   # under the build lock: build first
#   (mvnl takes the same lock, so the script's own build would wait for ever; MVN=mvn also works)
set -euo pipefail
cd "$(dirname "$0")/.."

WORKERS=${WORKERS:-1,4}
BATCH=${BATCH:-1,10}
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-2}
CONTRACTS=${CONTRACTS:-conveyor,thoonk,rescue,jq}
TRANSITIONS=${TRANSITIONS:-scripts,optimistic}
MVN=${MVN:-$(command -v mvnl || echo mvn)}

# The build (and the classpath) is kept in queue-impl/target/bench-classpath.txt; SKIP_BUILD=1 reuses it.
CP_FILE=queue-impl/target/bench-classpath.txt
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f "$CP_FILE" ]; then
  "$MVN" -q -B -pl simulator,conformance,queue-impl -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile="$(pwd)/$CP_FILE" -Dmdep.includeScope=runtime
fi
CP="queue-impl/target/classes:$(cat "$CP_FILE")"

source bench/servers.sh

echo "redis-server $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/') on $REDIS_PORT, simulator on $SIM_PORT"
java -cp "$CP" bench/QueueBenchmark.java --redis "$REDIS_PORT" --sim "$SIM_PORT" --contracts "$CONTRACTS" \
  --workers "$WORKERS" --batch "$BATCH" --jobs "$JOBS" --rounds "$ROUNDS" --transitions "$TRANSITIONS"
