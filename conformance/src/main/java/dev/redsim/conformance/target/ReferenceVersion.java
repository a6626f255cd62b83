package dev.redsim.conformance.target;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.version.RedisVersion;

import java.util.Optional;

/**
 * The Redis version under test, and the check that a reference server runs the same major.minor: replies change
 * between minor versions (7.2 words errors differently, adds fields), so comparing the simulator with another
 * version reports differences that are not bugs, and recording from one would make wrong recordings.
 * -Dredsim.ignoreRedisVersion=true or REDSIM_IGNORE_REDIS_VERSION=true accepts any version, on purpose.
 */
public final class ReferenceVersion {
    /** The version the simulator imitates, from the one place the simulator keeps it. */
    public static final String UNDER_TEST = RedisVersion.IMITATED.version();

    private ReferenceVersion() {
    }

    /** The redis_version a server reports in INFO server. */
    public static String of(RedisTarget target) {
        return of(target, null);
    }

    /** As {@link #of(RedisTarget)}, authenticating first with {@code password} when it is not null (requirepass). */
    public static String of(RedisTarget target, String password) {
        try (RespClient client = new RespClient(target.host(), target.port())) {
            if (password != null) {
                RespValue auth = client.call("AUTH", password);
                if (auth.isError()) {
                    throw new IllegalStateException(target.name() + " at " + target.host() + ":" + target.port()
                            + " refused AUTH: " + auth);
                }
            }
            RespValue info = client.call("INFO", "server");
            if (info.isError() || info.text() == null) {
                throw new IllegalStateException(target.name() + " at " + target.host() + ":" + target.port()
                        + " answered INFO server with " + info);
            }
            return field(info.text(), "redis_version").orElseThrow(() -> new IllegalStateException(target.name()
                    + " at " + target.host() + ":" + target.port() + " reports no redis_version in INFO server"));
        }
    }

    /** Throws unless {@code target} runs the version under test's major.minor (or the check is overridden). */
    public static String require(RedisTarget target) {
        return require(target, null);
    }

    /** As {@link #require(RedisTarget)}, for a server that needs {@code password} (null: none). */
    public static String require(RedisTarget target, String password) {
        String version = of(target, password);
        check(version, UNDER_TEST, overridden(), target.name() + " at " + target.host() + ":" + target.port());
        return version;
    }

    /**
     * Throws an {@link IllegalStateException} naming {@code what}, both versions and the override when
     * {@code version}'s major.minor differs from {@code underTest}'s, unless {@code override}.
     */
    public static void check(String version, String underTest, boolean override, String what) {
        if (override || sameMajorMinor(version, underTest)) {
            return;
        }
        throw new IllegalStateException(what + " is Redis " + version + ", but the version under test is "
                + majorMinor(underTest) + " (" + underTest + "): replies of another version differ for reasons that are"
                + " not simulator bugs. Use a redis-server " + majorMinor(underTest) + ".x, or accept this one on"
                + " purpose with -Dredsim.ignoreRedisVersion=true (or REDSIM_IGNORE_REDIS_VERSION=true).");
    }

    public static boolean overridden() {
        return Boolean.getBoolean("redsim.ignoreRedisVersion")
                || "true".equalsIgnoreCase(System.getenv("REDSIM_IGNORE_REDIS_VERSION"));
    }

    static boolean sameMajorMinor(String a, String b) {
        String left = majorMinor(a);
        return left != null && left.equals(majorMinor(b));
    }

    /** "7.0" of "7.0.15"; null when the text is not a version. */
    public static String majorMinor(String version) {
        String[] parts = version.split("\\.");
        if (parts.length < 2 || !parts[0].matches("\\d+") || !parts[1].matches("\\d+")) {
            return null;
        }
        return parts[0] + "." + parts[1];
    }

    private static Optional<String> field(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return Optional.of(line.substring(name.length() + 1).strip());
            }
        }
        return Optional.empty();
    }
}
