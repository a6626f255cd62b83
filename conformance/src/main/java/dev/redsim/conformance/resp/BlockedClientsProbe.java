package dev.redsim.conformance.resp;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Waits until a server reports a number of blocked clients (INFO clients), so a test knows a blocking command
 * sent on another connection has arrived and blocked before it pushes. Each probe is a round trip to the
 * server, which is what gives the other connection's command time to be read; nothing sleeps.
 */
public final class BlockedClientsProbe {
    private static final Pattern BLOCKED = Pattern.compile("blocked_clients:(\\d+)");

    private BlockedClientsProbe() {
    }

    /** True once blocked_clients equals {@code want}; false when {@code limit} passes first. */
    public static boolean await(RespClient admin, long want, Duration limit) {
        long giveUp = System.nanoTime() + limit.toNanos();
        while (true) {
            Matcher m = BLOCKED.matcher(admin.call("INFO", "clients").text());
            if (m.find() && Long.parseLong(m.group(1)) == want) {
                return true;
            }
            if (System.nanoTime() > giveUp) {
                return false;
            }
        }
    }

    /** As {@link #await}, failing the test when the count is not reached within 5 seconds. */
    public static void require(RespClient admin, long want) {
        if (!await(admin, want, Duration.ofSeconds(5))) {
            throw new AssertionError("never " + want + " blocked clients");
        }
    }
}
