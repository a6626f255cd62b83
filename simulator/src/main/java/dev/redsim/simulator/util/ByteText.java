package dev.redsim.simulator.util;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Client bytes as Java text and back, without loss. Redis puts a client's bytes into its replies as they came
 * (an unknown command's name, an option it does not know); the simulator builds those texts as Java strings. Valid
 * UTF-8 decodes to its characters, so text reads naturally; every byte that is not part of valid UTF-8 decodes to
 * the lone surrogate U+DC00 + byte (Python's "surrogateescape"), which valid UTF-8 never produces. Encoding writes
 * those back as the original bytes and everything else as UTF-8, so a reply carries exactly what the client sent.
 */
public final class ByteText {
    private static final char ESCAPE_BASE = 0xDC00;

    private ByteText() {
    }

    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public static String decode(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && bytes[i] >= 0) {
            i++;
        }
        if (i == to) {
            return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1); // ASCII
        }
        StringBuilder text = new StringBuilder(to - from);
        text.append(new String(bytes, from, i - from, StandardCharsets.ISO_8859_1));
        while (i < to) {
            int b = bytes[i] & 0xff;
            if (b < 0x80) {
                text.append((char) b);
                i++;
                continue;
            }
            int length = sequenceLength(bytes, i, to);
            if (length == 0) {
                text.append((char) (ESCAPE_BASE | b));
                i++;
            } else {
                text.append(new String(bytes, i, length, StandardCharsets.UTF_8));
                i += length;
            }
        }
        return text.toString();
    }

    /** The length of the valid UTF-8 sequence at {@code i} (RFC 3629: no overlongs, surrogates or beyond U+10FFFF), or 0. */
    private static int sequenceLength(byte[] bytes, int i, int to) {
        int b = bytes[i] & 0xff;
        int length;
        int min;
        int max = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2;
            min = 0x80;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3;
            min = b == 0xE0 ? 0xA0 : 0x80;
            max = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4;
            min = b == 0xF0 ? 0x90 : 0x80;
            max = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return 0;
        }
        if (i + length > to) {
            return 0;
        }
        int second = bytes[i + 1] & 0xff;
        if (second < min || second > max) {
            return 0;
        }
        for (int k = 2; k < length; k++) {
            int next = bytes[i + k] & 0xff;
            if (next < 0x80 || next > 0xBF) {
                return 0;
            }
        }
        return length;
    }

    /**
     * An argument as Redis's "%.*s" prints it: at most {@code maxBytes} bytes, and nothing from its first NUL byte
     * on (Redis formats its arguments as C strings).
     */
    public static String cString(byte[] arg, int maxBytes) {
        int end = 0;
        while (end < arg.length && end < maxBytes && arg[end] != 0) {
            end++;
        }
        return decode(arg, 0, end);
    }

    public static byte[] encode(CharSequence text) {
        if (!hasEscapes(text)) {
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        int runStart = 0;
        for (int i = 0; i < text.length(); i++) {
            if (isEscape(text, i)) {
                out.writeBytes(text.subSequence(runStart, i).toString().getBytes(StandardCharsets.UTF_8));
                out.write(text.charAt(i) & 0xff);
                runStart = i + 1;
            }
        }
        out.writeBytes(text.subSequence(runStart, text.length()).toString().getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Whether {@code text} holds bytes that are not UTF-8 (else plain UTF-8 encoding writes it as it came). */
    public static boolean hasEscapes(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (isEscape(text, i)) {
                return true;
            }
        }
        return false;
    }

    /** An escaped byte: U+DC80..U+DCFF standing alone (not the low half of a surrogate pair). */
    private static boolean isEscape(CharSequence text, int i) {
        char c = text.charAt(i);
        return c >= 0xDC80 && c <= 0xDCFF && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
    }
}
