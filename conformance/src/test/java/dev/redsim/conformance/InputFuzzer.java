package dev.redsim.conformance;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Input buffers for {@link MalformedInputFuzzTest}, from a seeded random source: well-formed commands in RESP and
 * inline form, then mutated (bytes flipped, inserted, deleted, duplicated, cut short, lengths and counts replaced
 * by other numbers, line ends moved), or plain random bytes and random inline text. The commands come from a small
 * set whose replies do not depend on the server's clock, identity or hash-table order, so two servers that parse
 * alike answer alike, byte for byte.
 */
final class InputFuzzer {
    private static final List<String[]> COMMANDS = List.of(
            new String[] {"PING"},
            new String[] {"PING", "%v"},
            new String[] {"ECHO", "%v"},
            new String[] {"SET", "%k", "%v"},
            new String[] {"GET", "%k"},
            new String[] {"APPEND", "%k", "%v"},
            new String[] {"INCR", "%k"},
            new String[] {"STRLEN", "%k"},
            new String[] {"DEL", "%k", "%k"},
            new String[] {"EXISTS", "%k"},
            new String[] {"TYPE", "%k"},
            new String[] {"MGET", "%k", "%k"},
            new String[] {"RPUSH", "%k", "%v", "%v"},
            new String[] {"LRANGE", "%k", "0", "-1"},
            new String[] {"HSET", "%k", "%v", "%v"},
            new String[] {"HGETALL", "%k"},
            new String[] {"SADD", "%k", "%v"},
            new String[] {"SCARD", "%k"},
            new String[] {"ZADD", "%k", "%n", "%v"},
            new String[] {"ZRANGE", "%k", "0", "-1", "WITHSCORES"},
            new String[] {"MULTI"},
            new String[] {"EXEC"},
            new String[] {"DISCARD"},
            new String[] {"SUBSCRIBE", "%v"},
            new String[] {"UNSUBSCRIBE"},
            new String[] {"SELECT", "%n"});
    private static final String[] VALUES = {"a", "b", "1", "-7", "3.5", "hello world", "", "x y", "\"q\"", "tab\there",
        "12345678901234567890", "nan", "\\x41"};
    private static final byte[] SPECIAL = "*$\r\n \"'\\x0123456789-+:".getBytes(StandardCharsets.US_ASCII);
    private static final String[] NUMBERS = {"-1", "-2", "0", "1", "3", "99", "1048577", "536870913", "2147483648",
        "9223372036854775808", "", "1a", " 1", "+1", "00"};
    private static final String[] INLINE_PIECES = {"GET", "ECHO", "PING", " ", "  ", "\t", "\"", "'", "\\", "\\x4",
        "\\x41", "\\n", "a", "b", "\"\"", "''", "\"a b\"", "'c d'", "\u000b", "\f", "\"x\"y", "'x'y", "\\\"", "\r"};

    private final Random random;

    InputFuzzer(Random random) {
        this.random = random;
    }

    /** The next buffer to send. */
    byte[] next() {
        int kind = random.nextInt(20);
        if (kind == 0) {
            return randomBytes(random.nextInt(64));
        }
        if (kind == 1) {
            return randomInlineText();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int commands = 1 + random.nextInt(4);
        for (int i = 0; i < commands; i++) {
            String[] command = instantiate(COMMANDS.get(random.nextInt(COMMANDS.size())));
            out.writeBytes(random.nextInt(4) == 0 ? inline(command) : resp(command));
        }
        byte[] buffer = out.toByteArray();
        int mutations = kind < 6 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < mutations; i++) {
            buffer = mutate(buffer);
        }
        return buffer;
    }

    private String[] instantiate(String[] template) {
        String[] command = template.clone();
        for (int i = 0; i < command.length; i++) {
            command[i] = switch (command[i]) {
                case "%k" -> "fuzz:" + random.nextInt(6);
                case "%v" -> VALUES[random.nextInt(VALUES.length)];
                case "%n" -> Integer.toString(random.nextInt(20) - 3);
                default -> random.nextInt(8) == 0 ? command[i].toLowerCase() : command[i];
            };
        }
        return command;
    }

    private static byte[] resp(String[] command) {
        StringBuilder text = new StringBuilder("*").append(command.length).append("\r\n");
        for (String arg : command) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            text.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** An inline command: bare words, or double-quoted with escapes where a word needs them. */
    private byte[] inline(String[] command) {
        StringBuilder text = new StringBuilder();
        for (String arg : command) {
            if (text.length() > 0) {
                text.append(' ');
            }
            if (arg.isEmpty() || arg.matches(".*[\\s\"'\\\\].*") || random.nextInt(6) == 0) {
                text.append('"');
                for (char c : arg.toCharArray()) {
                    switch (c) {
                        case '"' -> text.append("\\\"");
                        case '\\' -> text.append("\\\\");
                        case '\t' -> text.append("\\t");
                        default -> text.append(c);
                    }
                }
                text.append('"');
            } else {
                text.append(arg);
            }
        }
        text.append(random.nextBoolean() ? "\r\n" : "\n");
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] mutate(byte[] buffer) {
        if (buffer.length == 0) {
            return randomBytes(1 + random.nextInt(8));
        }
        int at = random.nextInt(buffer.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (random.nextInt(8)) {
            case 0 -> { // flip a byte
                byte[] copy = buffer.clone();
                copy[at] = (byte) random.nextInt(256);
                return copy;
            }
            case 1 -> { // insert a byte the parser cares about
                out.write(buffer, 0, at);
                out.write(SPECIAL[random.nextInt(SPECIAL.length)]);
                out.write(buffer, at, buffer.length - at);
            }
            case 2 -> { // delete a range
                int end = Math.min(buffer.length, at + 1 + random.nextInt(6));
                out.write(buffer, 0, at);
                out.write(buffer, end, buffer.length - end);
            }
            case 3 -> { // duplicate a range
                int end = Math.min(buffer.length, at + 1 + random.nextInt(12));
                out.write(buffer, 0, end);
                out.write(buffer, at, buffer.length - at);
            }
            case 4 -> out.write(buffer, 0, at); // cut short
            case 5 -> {
                return replaceNumber(buffer, at);
            }
            case 6 -> { // a line end dropped
                byte[] copy = buffer.clone();
                for (int i = at; i < copy.length; i++) {
                    if (copy[i] == '\r' || copy[i] == '\n') {
                        copy[i] = (byte) (random.nextBoolean() ? ' ' : 'x');
                        break;
                    }
                }
                return copy;
            }
            default -> { // a random run of bytes inserted
                out.write(buffer, 0, at);
                out.writeBytes(randomBytes(1 + random.nextInt(10)));
                out.write(buffer, at, buffer.length - at);
            }
        }
        return out.toByteArray();
    }

    /** The first '*' or '$' header at or after {@code at} gets another count: negative, zero, huge or malformed. */
    private byte[] replaceNumber(byte[] buffer, int at) {
        for (int i = at; i < buffer.length; i++) {
            if (buffer[i] != '*' && buffer[i] != '$') {
                continue;
            }
            int end = i + 1;
            while (end < buffer.length && buffer[end] != '\r') {
                end++;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(buffer, 0, i + 1);
            out.writeBytes(NUMBERS[random.nextInt(NUMBERS.length)].getBytes(StandardCharsets.US_ASCII));
            out.write(buffer, end, buffer.length - end);
            return out.toByteArray();
        }
        return buffer;
    }

    private byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = random.nextInt(3) == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : (byte) random.nextInt(256);
        }
        return bytes;
    }

    /** A line of words, quotes, escapes and blanks, as sdssplitargs meets it. */
    private byte[] randomInlineText() {
        StringBuilder line = new StringBuilder();
        int n = 1 + random.nextInt(8);
        for (int i = 0; i < n; i++) {
            line.append(INLINE_PIECES[random.nextInt(INLINE_PIECES.length)]);
        }
        line.append(random.nextBoolean() ? "\r\n" : "\n");
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }
}
