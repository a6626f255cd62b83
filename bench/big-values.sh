#!/usr/bin/env bash
# SET and GET of big values (10, 100 and 500 MB by default) on the simulator and a real redis-server, side by side
# in one run: seconds for each, the ratio simulator/redis, and the longest a second client's PING waited meanwhile.
#
#   bench/big-values.sh            # 10 100 500
#   bench/big-values.sh 1 50       # other sizes, in MB
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/servers.sh
redis-cli -p "$REDIS_PORT" config set proto-max-bulk-len 1gb >/dev/null
redis-cli -p "$SIM_PORT" config set proto-max-bulk-len 1gb >/dev/null
python3 bench/big_values.py "$REDIS_PORT" "$SIM_PORT" "$@"
