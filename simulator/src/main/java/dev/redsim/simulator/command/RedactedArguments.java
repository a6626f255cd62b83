package dev.redsim.simulator.command;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * The arguments Redis replaces with "(redacted)" before it logs a command (redactClientCommandArgument): AUTH's,
 * HELLO's AUTH user and password, ACL SETUSER's name and rules, MIGRATE's AUTH / AUTH2 credentials, and the values
 * of sensitive parameters in CONFIG SET.
 */
final class RedactedArguments {
    private static final byte[] REDACTED = "(redacted)".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> SENSITIVE_CONFIG = Set.of("requirepass", "masterauth");

    private RedactedArguments() {
    }

    /** The arguments as the slow log records them: the same array when nothing is secret. */
    static byte[][] of(String fullName, byte[][] args) {
        return switch (fullName) {
            case "auth" -> redactFrom(args, 1, args.length);
            case "acl|setuser" -> redactFrom(args, 2, args.length); // the user's name and every rule
            case "hello" -> afterToken(args, 2, "auth", 2);
            case "migrate" -> migrate(args);
            case "config|set" -> configSet(args);
            default -> args;
        };
    }

    private static byte[][] afterToken(byte[][] args, int from, String token, int count) {
        for (int i = from; i < args.length; i++) {
            if (is(args[i], token)) {
                return redactFrom(args, i + 1, Math.min(args.length, i + 1 + count));
            }
        }
        return args;
    }

    private static byte[][] migrate(byte[][] args) {
        for (int i = 6; i < args.length; i++) {
            if (is(args[i], "auth")) {
                return redactFrom(args, i + 1, Math.min(args.length, i + 2));
            }
            if (is(args[i], "auth2")) {
                return redactFrom(args, i + 1, Math.min(args.length, i + 3));
            }
        }
        return args;
    }

    private static byte[][] configSet(byte[][] args) {
        byte[][] result = args;
        for (int i = 2; i + 1 < args.length; i += 2) {
            if (SENSITIVE_CONFIG.contains(new String(args[i], StandardCharsets.UTF_8).toLowerCase(Locale.ROOT))) {
                result = result == args ? args.clone() : result;
                result[i + 1] = REDACTED;
            }
        }
        return result;
    }

    private static byte[][] redactFrom(byte[][] args, int from, int to) {
        if (from >= to) {
            return args;
        }
        byte[][] result = args.clone();
        for (int i = from; i < to; i++) {
            result[i] = REDACTED;
        }
        return result;
    }

    private static boolean is(byte[] arg, String word) {
        return new String(arg, StandardCharsets.UTF_8).equalsIgnoreCase(word);
    }
}
