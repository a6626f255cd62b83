package dev.redsim.conformance.differential;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** One command of a history, sent by one of the history's clients. */
public record Call(int client, byte[][] args) {
    public static Call of(int client, String... args) {
        byte[][] bytes = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            bytes[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        return new Call(client, bytes);
    }

    public String name() {
        return new String(args[0], StandardCharsets.UTF_8).toUpperCase();
    }

    /** The command as a person types it into redis-cli (quoted where needed). */
    public String toCli() {
        StringBuilder sb = new StringBuilder();
        for (byte[] arg : args) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            String s = new String(arg, StandardCharsets.UTF_8);
            boolean plain = !s.isEmpty() && s.chars().allMatch(c -> c > 32 && c < 127 && c != '"' && c != '\'' && c != '\\');
            sb.append(plain ? s : '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "client " + client + ": " + toCli();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Call c && c.client == client && Arrays.deepEquals(c.args, args);
    }

    @Override
    public int hashCode() {
        return client * 31 + Arrays.deepHashCode(args);
    }
}
