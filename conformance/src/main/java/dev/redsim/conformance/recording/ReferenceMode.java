package dev.redsim.conformance.recording;

import dev.redsim.conformance.target.Targets;

/**
 * Where the scenario files get the reference's replies from in this run.
 *
 * <ul>
 *   <li>{@link #LIVE}: a live Redis (REDIS_URL or redis-server on PATH) answers; the simulator is compared with it,
 *   and so is the recording, which fails as stale when the live server answers differently. Also chosen in CI
 *   (CI=true, redsim.requireRealRedis) when there is no live Redis: the run then fails, as CI must compare live.</li>
 *   <li>{@link #RECORD}: -Dredsim.record=true; compared live as above, and the recordings are rewritten.</li>
 *   <li>{@link #REPLAY}: no live Redis outside CI; the simulator is compared with the recordings.</li>
 * </ul>
 */
public enum ReferenceMode {
    LIVE, RECORD, REPLAY;

    public static ReferenceMode current() {
        if (Boolean.getBoolean("redsim.record") || "true".equalsIgnoreCase(System.getenv("REDSIM_RECORD"))) {
            if (!Targets.referenceAvailable()) {
                throw new IllegalStateException("recording (redsim.record) needs a live Redis: redis-server "
                        + "on PATH or REDIS_URL");
            }
            return RECORD;
        }
        return Targets.referenceAvailable() || Targets.realRedisRequired() ? LIVE : REPLAY;
    }
}
