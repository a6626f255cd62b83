package dev.redsim.simulator.util;

/**
 * Glob matching with the rules of Redis's stringmatchlen (util.c): '*', '?', '[...]' with ranges and '^'
 * negation, and '\' escapes; used by KEYS, SCAN MATCH, PSUBSCRIBE and CONFIG GET.
 *
 * <p>Bounded as Redis 7.0.9+ bounds it (CVE-2022-36021): recursion stops at 1,000 nested stars, and once the rest
 * of the pattern after a star has failed to match at every position of the rest of the text, no earlier star tries
 * a longer match either (that could only start the rest later, where it has just failed). Without that, a pattern
 * such as "a*a*a*...*b" against a long run of "a"s takes exponential time.
 */
public final class GlobMatcher {
    private GlobMatcher() {
    }

    public static boolean matches(byte[] pattern, byte[] text, boolean ignoreCase) {
        return match(pattern, 0, text, 0, ignoreCase, 0, new boolean[1]);
    }

    public static boolean matches(String pattern, String text) {
        return matches(pattern.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                text.getBytes(java.nio.charset.StandardCharsets.UTF_8), false);
    }

    /** {@code giveUp[0]}: a tail after some star matched nowhere, so no longer match of an earlier star can help. */
    private static boolean match(byte[] p, int pi, byte[] s, int si, boolean nocase, int depth, boolean[] giveUp) {
        if (depth > 1000) {
            return false; // Redis caps recursion to protect itself from pathological patterns
        }
        int plen = p.length;
        int slen = s.length;
        while (pi < plen && si < slen) {
            switch (p[pi]) {
                case '*': {
                    while (pi + 1 < plen && p[pi + 1] == '*') {
                        pi++;
                    }
                    if (pi + 1 == plen) {
                        return true;
                    }
                    while (si < slen) {
                        if (match(p, pi + 1, s, si, nocase, depth + 1, giveUp)) {
                            return true;
                        }
                        if (giveUp[0]) {
                            return false;
                        }
                        si++;
                    }
                    giveUp[0] = true;
                    return false;
                }
                case '?':
                    si++;
                    break;
                case '[': {
                    pi++;
                    boolean not = pi < plen && p[pi] == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    while (true) {
                        if (pi < plen && p[pi] == '\\' && plen - pi >= 2) {
                            pi++;
                            if (p[pi] == s[si]) {
                                found = true;
                            }
                        } else if (pi >= plen) {
                            pi--; // Redis treats an unterminated class as ending here
                            break;
                        } else if (p[pi] == ']') {
                            break;
                        } else if (plen - pi >= 3 && p[pi + 1] == '-') {
                            int start = p[pi] & 0xff;
                            int end = p[pi + 2] & 0xff;
                            int c = s[si] & 0xff;
                            if (start > end) {
                                int t = start;
                                start = end;
                                end = t;
                            }
                            if (nocase) {
                                start = lower(start);
                                end = lower(end);
                                c = lower(c);
                            }
                            pi += 2;
                            if (c >= start && c <= end) {
                                found = true;
                            }
                        } else {
                            if (nocase ? lower(p[pi] & 0xff) == lower(s[si] & 0xff) : p[pi] == s[si]) {
                                found = true;
                            }
                        }
                        pi++;
                    }
                    if (not) {
                        found = !found;
                    }
                    if (!found) {
                        return false;
                    }
                    si++;
                    break;
                }
                case '\\':
                    if (plen - pi >= 2) {
                        pi++;
                    }
                    // fall through: match the escaped character literally
                default:
                    if (nocase ? lower(p[pi] & 0xff) != lower(s[si] & 0xff) : p[pi] != s[si]) {
                        return false;
                    }
                    si++;
                    break;
            }
            pi++;
            if (si == slen) {
                while (pi < plen && p[pi] == '*') {
                    pi++;
                }
                break;
            }
        }
        return pi == plen && si == slen;
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }
}
