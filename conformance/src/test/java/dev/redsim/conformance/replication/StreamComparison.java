package dev.redsim.conformance.replication;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Compares two replication streams command by command, with the normalisations that must be there and no others:
 * PINGs are dropped (each master sends its keepalive on its own schedule); a time the master computed from its
 * clock (the argument after PXAT, PEXPIREAT's and RESTORE ... ABSTTL's time, XCLAIM's TIME, an ID XADD made from
 * "*") may differ by at most {@link #CLOCK_TOLERANCE_MS}, since the two servers run the same step a few
 * milliseconds apart, each on the host's clock (a sequence number after such an ID is not compared); and in a
 * history marked random-members, the members SPOP chose (the SREM arguments after the key) are not compared.
 */
final class StreamComparison {
    static final long CLOCK_TOLERANCE_MS = 5_000;
    private static final Pattern EPOCH_MS = Pattern.compile("1[0-9]{12}");
    private static final Pattern EPOCH_ID = Pattern.compile("(1[0-9]{12})-[0-9]+");
    private static final Set<String> PINGS = Set.of("ping", "PING");

    private StreamComparison() {
    }

    static List<List<String>> withoutPings(List<List<String>> stream) {
        List<List<String>> kept = new ArrayList<>();
        for (List<String> command : stream) {
            if (!(command.size() == 1 && PINGS.contains(command.get(0)))) {
                kept.add(command);
            }
        }
        return kept;
    }

    /** The first difference as text, or null when the streams are the same under the normalisations. */
    static String difference(List<List<String>> expected, List<List<String>> actual, boolean randomMembers) {
        for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
            List<String> e = i < expected.size() ? expected.get(i) : null;
            List<String> a = i < actual.size() ? actual.get(i) : null;
            if (e == null || a == null || !same(e, a, randomMembers)) {
                return "command " + i + ": redis-server sent " + e + ", the simulator " + a;
            }
        }
        return null;
    }

    private static boolean same(List<String> e, List<String> a, boolean randomMembers) {
        if (e.size() != a.size()) {
            return false;
        }
        boolean srem = e.get(0).equalsIgnoreCase("srem");
        for (int j = 0; j < e.size(); j++) {
            String x = e.get(j);
            String y = a.get(j);
            if (x.equals(y) || (randomMembers && srem && j >= 2)) {
                continue;
            }
            if (!clockValues(x, y)) {
                return false;
            }
        }
        return true;
    }

    private static boolean clockValues(String x, String y) {
        var ex = EPOCH_ID.matcher(x);
        var ey = EPOCH_ID.matcher(y);
        if (ex.matches() && ey.matches()) {
            return Math.abs(Long.parseLong(ex.group(1)) - Long.parseLong(ey.group(1))) <= CLOCK_TOLERANCE_MS;
        }
        if (EPOCH_MS.matcher(x).matches() && EPOCH_MS.matcher(y).matches()) {
            return Math.abs(Long.parseLong(x) - Long.parseLong(y)) <= CLOCK_TOLERANCE_MS;
        }
        return false;
    }
}
