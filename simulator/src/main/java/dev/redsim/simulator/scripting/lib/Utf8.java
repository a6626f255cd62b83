package dev.redsim.simulator.scripting.lib;

import java.io.ByteArrayOutputStream;

/** UTF-8 encoding of one code point, up to 0x1FFFFF as cjson allows. */
final class Utf8 {
    private Utf8() {
    }

    static void write(ByteArrayOutputStream out, int codepoint) {
        if (codepoint <= 0x7F) {
            out.write(codepoint);
        } else if (codepoint <= 0x7FF) {
            out.write((codepoint >> 6) | 0xC0);
            out.write((codepoint & 0x3F) | 0x80);
        } else if (codepoint <= 0xFFFF) {
            out.write((codepoint >> 12) | 0xE0);
            out.write(((codepoint >> 6) & 0x3F) | 0x80);
            out.write((codepoint & 0x3F) | 0x80);
        } else {
            out.write((codepoint >> 18) | 0xF0);
            out.write(((codepoint >> 12) & 0x3F) | 0x80);
            out.write(((codepoint >> 6) & 0x3F) | 0x80);
            out.write((codepoint & 0x3F) | 0x80);
        }
    }
}
