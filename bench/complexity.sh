#!/usr/bin/env bash
# How each command's cost grows with the data (issue 20): the same data at 1x, 10x and 100x on a real redis-server
# and on the simulator (each its own process, started by servers.sh), side by side in one run; see
# bench/ComplexityBenchmark.java for what is measured. Run it holding the build lock so no build competes:
#
#   flock /tmp/redsim-mvn.lock bench/complexity.sh                 # 10,000 keys and elements at 1x
#   flock /tmp/redsim-mvn.lock bench/complexity.sh 1000 1000       # smaller: base keys, base elements
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/servers.sh
java bench/ComplexityBenchmark.java "$REDIS_PORT" "$SIM_PORT" "$@"
