package dev.redsim.simulator.scripting;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** luaj's parser names tokens by number; Lua 5.1 names them by text ("near '<eof>'"). */
final class CompileErrors {
    private static final Pattern UNFINISHED_LONG = Pattern.compile("unfinished long (string|comment)$");
    private static final Pattern UNEXPECTED = Pattern.compile("unexpected symbol (\\d+) \\((.*)\\)$");
    private static final String[] TOKENS = {"and", "break", "do", "else", "elseif", "end", "false", "for",
        "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until",
        "while", "..", "...", "==", ">=", "<=", "~=", "::", "<eof>"};

    private CompileErrors() {
    }

    static String luaText(String luajMessage) {
        if (UNFINISHED_LONG.matcher(luajMessage).find()) {
            // a long string or comment can only run out at the end of the chunk, where Lua names '<eof>'
            return luajMessage + " near '<eof>'";
        }
        Matcher m = UNEXPECTED.matcher(luajMessage);
        if (!m.find()) {
            return luajMessage;
        }
        int token = Integer.parseInt(m.group(1));
        // luaX_token2str: a control character is named by its code
        String text = token < 32 || token == 127 ? "char(" + token + ")"
                : token < 257 ? String.valueOf((char) token)
                : token - 257 < TOKENS.length ? TOKENS[token - 257] : m.group(2);
        return luajMessage.substring(0, m.start()) + "unexpected symbol near '" + text + "'";
    }
}
