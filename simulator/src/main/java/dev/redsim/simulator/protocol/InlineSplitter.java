package dev.redsim.simulator.protocol;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits an inline command line into arguments with the rules of Redis's sdssplitargs: whitespace
 * separates (any isspace() byte between arguments, but only space, tab, CR and LF end an unquoted one), double quotes understand \n \r \t \b \a \\ \" and \xHH, single quotes understand only \',
 * and a closing quote must be followed by whitespace or the end of the line.
 */
public final class InlineSplitter {
    private InlineSplitter() {
    }

    /** Returns the arguments, or null when quotes are unbalanced (Redis's "unbalanced quotes" error). */
    public static byte[][] split(byte[] line) {
        List<byte[]> args = new ArrayList<>();
        int i = 0;
        int n = cStringLength(line);
        while (true) {
            while (i < n && isSpace(line[i])) {
                i++;
            }
            if (i >= n) {
                return args.toArray(new byte[0][]);
            }
            ByteArrayOutputStream current = new ByteArrayOutputStream();
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            while (!done) {
                if (inDouble) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 3 < n && line[i + 1] == 'x' && isHex(line[i + 2]) && isHex(line[i + 3])) {
                        current.write(hexValue(line[i + 2]) * 16 + hexValue(line[i + 3]));
                        i += 3;
                    } else if (c == '\\' && i + 1 < n) {
                        i++;
                        current.write(unescape(line[i]));
                    } else if (c == '"') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        current.write(c);
                    }
                } else if (inSingle) {
                    if (i >= n) {
                        return null;
                    }
                    byte c = line[i];
                    if (c == '\\' && i + 1 < n && line[i + 1] == '\'') {
                        i++;
                        current.write('\'');
                    } else if (c == '\'') {
                        if (i + 1 < n && !isSpace(line[i + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        current.write(c);
                    }
                } else {
                    if (i >= n) {
                        done = true;
                        continue;
                    }
                    byte c = line[i];
                    if (endsToken(c)) {
                        done = true;
                    } else if (c == '"') {
                        inDouble = true;
                    } else if (c == '\'') {
                        inSingle = true;
                    } else {
                        current.write(c);
                    }
                }
                if (i < n) {
                    i++;
                }
            }
            args.add(current.toByteArray());
        }
    }

    private static int unescape(byte c) {
        switch (c) {
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'b': return '\b';
            case 'a': return 7;
            default: return c;
        }
    }

    /** Redis splits a C string, so a NUL byte ends the line. */
    private static int cStringLength(byte[] line) {
        for (int i = 0; i < line.length; i++) {
            if (line[i] == 0) {
                return i;
            }
        }
        return line.length;
    }

    /** An unquoted argument ends at these only: \v and \f, spaces to C's isspace(), stay inside it. */
    private static boolean endsToken(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /** C's isspace(): what sdssplitargs skips between arguments and requires after a closing quote. */
    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0x0b;
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hexValue(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c - 'A' + 10;
    }
}
