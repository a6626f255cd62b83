package dev.redsim.simulator.acl;

/** ASCII-only case folding, as Redis's strcasecmp compares rule keywords, names and first arguments. */
final class Ascii {
    private Ascii() {
    }

    static String lower(String s) {
        char[] chars = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                if (chars == null) {
                    chars = s.toCharArray();
                }
                chars[i] = (char) (c + 32);
            }
        }
        return chars == null ? s : new String(chars);
    }

    static boolean equalsIgnoreCase(String a, String b) {
        return a.length() == b.length() && lower(a).equals(lower(b));
    }
}
