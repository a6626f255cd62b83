package dev.redsim.simulator.scripting;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lua 5.1's wording for the runtime errors luaj (Lua 5.2) words differently. Lua 5.1 names the variable
 * when it knows it ("attempt to index local 't'"); luaj does not say, so those keep the unnamed form.
 */
final class LuaErrorTexts {
    private static final Pattern ARITH = Pattern.compile("attempt to perform arithmetic __\\w+ on (\\w+) and (\\w+)$");
    private static final Pattern UNARY = Pattern.compile("attempt to perform arithmetic on (\\w+)$");
    private static final Pattern CONCAT = Pattern.compile("attempt to concatenate (\\w+) and (\\w+)$");
    private static final Pattern LENGTH = Pattern.compile("attempt to get length of (\\w+)$");
    private static final Pattern COMPARE = Pattern.compile("attempt to compare __\\w+ on (\\w+) and (\\w+)$");
    private static final Pattern COMPARE_MIXED = Pattern.compile(
            "attempt to compare (\\w+) with (\\w+) expected, got \\w+$");

    private LuaErrorTexts() {
    }

    static String lua51(String message) {
        Matcher m = ARITH.matcher(message);
        if (m.find()) {
            // Lua 5.1 blames the second operand when the first is a number
            String culprit = m.group(1).equals("number") ? m.group(2) : m.group(1);
            return replace(message, m, "attempt to perform arithmetic on a " + culprit + " value");
        }
        if ((m = UNARY.matcher(message)).find()) {
            return replace(message, m, "attempt to perform arithmetic on a " + m.group(1) + " value");
        }
        if ((m = CONCAT.matcher(message)).find()) {
            boolean firstOk = m.group(1).equals("string") || m.group(1).equals("number");
            return replace(message, m, "attempt to concatenate a " + (firstOk ? m.group(2) : m.group(1)) + " value");
        }
        if ((m = LENGTH.matcher(message)).find()) {
            return replace(message, m, "attempt to get length of a " + m.group(1) + " value");
        }
        if ((m = COMPARE.matcher(message)).find()) {
            return replace(message, m, m.group(1).equals(m.group(2))
                    ? "attempt to compare two " + m.group(1) + " values"
                    : "attempt to compare " + m.group(1) + " with " + m.group(2));
        }
        if ((m = COMPARE_MIXED.matcher(message)).find()) {
            // luaj evaluates a < b as b > a and names the operands the other way round
            return replace(message, m, "attempt to compare " + m.group(2) + " with " + m.group(1));
        }
        return message;
    }

    private static String replace(String message, Matcher m, String text) {
        return message.substring(0, m.start()) + text;
    }
}
