package dev.redsim.conformance.scenario;

/**
 * One command of a scenario, with how its replies are compared.
 *
 * @param line       the line in the scenario file
 * @param client     which connection sends it (1 unless the line says @c2, @c3, ...)
 * @param args       the command
 * @param compare    how replies are compared
 * @param tolerance  for {@link Compare#APPROX}: the largest accepted difference between integer replies
 * @param protocol   0 for both protocols, or 2 / 3 when the step runs only under that protocol
 * @param io         whether the step sends and reads (the usual), only sends (a blocking command, a
 *                   subscription's later messages), or only reads the next reply or push of its client
 * @param node       in a cluster scenario, which node the client's connection goes to: null for node 0, a node's
 *                   index in slot order ("2"), or {@code of:KEY} for the node serving KEY's slot
 */
public record Step(int line, int client, byte[][] args, Compare compare, long tolerance, int protocol, Io io,
                   String node) {
    /** A step of a standalone scenario (or sent to a cluster's node 0). */
    public Step(int line, int client, byte[][] args, Compare compare, long tolerance, int protocol, Io io) {
        this(line, client, args, compare, tolerance, protocol, io, null);
    }

    /** What a step does on its connection. */
    public enum Io { CALL, SEND, RECEIVE, AWAIT_BLOCKED }

    /** Declared normalisations, only where Redis itself is unordered, random or time-dependent. */
    public enum Compare {
        /** Byte for byte. */
        EXACT,
        /** Aggregate elements compared as a multiset (unordered replies such as SMEMBERS of a hashtable set). */
        SORTED,
        /** Integers within a tolerance (TTL/PTTL read while real time passes). */
        APPROX,
        /** Same RESP type and, for aggregates, the same number of elements (random choices). */
        SHAPE,
        /** Sent to both, not compared (ids, timestamps). */
        IGNORE
    }

    public String commandText() {
        if (io == Io.RECEIVE) {
            return "(next reply of client " + client + ")";
        }
        if (io == Io.AWAIT_BLOCKED) {
            return "(until " + new String(args[0], java.nio.charset.StandardCharsets.UTF_8) + " clients are blocked)";
        }
        StringBuilder sb = new StringBuilder();
        for (byte[] arg : args) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            String s = new String(arg, java.nio.charset.StandardCharsets.UTF_8);
            boolean plain = !s.isEmpty() && s.chars().allMatch(c -> c > 32 && c < 127 && c != '"' && c != '\'' && c != '\\');
            sb.append(plain ? s : '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "\\r")
                    .replace("\n", "\\n") + '"');
        }
        return sb.toString();
    }
}
