# Sourced by the bench scripts: starts a real redis-server and the simulator jar side by side on free ports of
# 127.0.0.1, waits until both answer, and stops both (by PID) when the script exits.
# Sets REDIS_PORT, SIM_PORT, WORK (a temporary folder removed at exit) and PIDS (redis-server's, then the simulator's).
# SIM_LAUNCHER=bin/redsim-server starts the simulator with the command-line launcher's JVM settings instead of a
# plain java -jar (bench/memory.sh measures what a user of the launcher gets).

for tool in redis-server redis-benchmark redis-cli python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install redis-server redis-tools python3)"; exit 2; }
done
JAR=${SIM_JAR:-simulator/target/redsim-simulator.jar}  # SIM_JAR: another build of the simulator (before / after runs)
[ -f "$JAR" ] || mvn -q -pl simulator package -DskipTests

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
REDIS_PORT=$(free_port)
SIM_PORT=$(free_port)
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --dir "$WORK" \
  --loglevel warning > "$WORK/redis.log" 2>&1 &
PIDS+=($!)
if [ -n "${SIM_LAUNCHER:-}" ]; then
  REDSIM_JAVA_OPTS="${SIM_JAVA_OPTS:-}" "$SIM_LAUNCHER" --port "$SIM_PORT" > "$WORK/sim.log" 2>&1 &
else
  java ${SIM_JAVA_OPTS:-} -jar "$JAR" --port "$SIM_PORT" > "$WORK/sim.log" 2>&1 &
fi
PIDS+=($!)
for port in "$REDIS_PORT" "$SIM_PORT"; do
  for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
