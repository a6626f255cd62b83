package dev.redsim.simulator.scripting;

/**
 * Lua 5.1's complaint about a malformed pattern, for the patterns luaj's matcher fails on with a Java
 * exception instead ("[a-" reads past the end): the first problem Lua's matcher would meet scanning it.
 */
final class PatternErrors {
    private PatternErrors() {
    }

    /** The error text, or null when the pattern looks well formed. */
    static String problem(byte[] p) {
        int open = 0;
        for (int i = 0; i < p.length; i++) {
            switch (p[i]) {
                case '%' -> {
                    if (i + 1 >= p.length) {
                        return "malformed pattern (ends with '%')";
                    }
                    if (p[i + 1] == 'f' && (i + 2 >= p.length || p[i + 2] != '[')) {
                        return "missing '[' after '%f' in pattern";
                    }
                    if (p[i + 1] == 'b' && i + 3 >= p.length) {
                        return "unbalanced pattern";
                    }
                    i += p[i + 1] == 'b' ? 3 : 1;
                }
                case '[' -> {
                    int j = i + 1;
                    if (j < p.length && p[j] == '^') {
                        j++;
                    }
                    do { // the first character of a class is taken as is, even ']'
                        if (j >= p.length) {
                            return "malformed pattern (missing ']')";
                        }
                        if (p[j++] == '%' && j < p.length) {
                            j++;
                        }
                    } while (j >= p.length || p[j] != ']');
                    i = j;
                }
                case '(' -> open++;
                case ')' -> {
                    if (open-- == 0) {
                        return "invalid pattern capture";
                    }
                }
                default -> {
                }
            }
        }
        return null;
    }
}
