#!/usr/bin/env bash
# Memory footprint (issue 20): for each data shape, a fresh redis-server and a fresh simulator started by the
# command-line launcher (bin/redsim-server, so with its JVM settings), the shape loaded into both, and the resident
# size, INFO used_memory and bytes per key of both printed side by side (bench/MemoryBenchmark.java). Bounded (about
# a minute a shape on 2 cores) and local; run it holding the build lock so no build competes:
#
#   flock /tmp/redsim-mvn.lock bench/memory.sh                    # every shape
#   flock /tmp/redsim-mvn.lock bench/memory.sh strings hash-small # some of them
#   SIM_JAVA_OPTS='-XX:+UseG1GC' flock /tmp/redsim-mvn.lock bench/memory.sh strings   # other JVM settings to compare
#   SIM_LAUNCHER=/other/checkout/bin/redsim-server flock /tmp/redsim-mvn.lock bench/memory.sh strings  # another build
set -euo pipefail
cd "$(dirname "$0")/.."
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || mapfile -t shapes < <(java bench/MemoryBenchmark.java --shapes)
java bench/MemoryBenchmark.java --header
for shape in "${shapes[@]}"; do
  (
    SIM_LAUNCHER=${SIM_LAUNCHER:-bin/redsim-server}
    source bench/servers.sh
    java bench/MemoryBenchmark.java "$shape" "$REDIS_PORT" "${PIDS[0]}" "$SIM_PORT" "${PIDS[1]}"
  )
done
