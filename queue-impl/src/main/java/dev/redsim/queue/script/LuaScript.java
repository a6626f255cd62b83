package dev.redsim.queue.script;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One Lua script of a queue transition, run atomically by EVALSHA, falling back to EVAL (which also caches it) when
 * the server answers NOSCRIPT: after a restart, a failover or SCRIPT FLUSH the next call reloads it by itself, and
 * nothing has to be loaded ahead of time (see decision 0014 for why not FUNCTION LOAD). Immutable; thread-safe.
 */
public final class LuaScript {
    private final byte[] source;
    private final byte[] sha;

    public LuaScript(String source) {
        this.source = source.getBytes(StandardCharsets.UTF_8);
        this.sha = sha1Hex(this.source).getBytes(StandardCharsets.US_ASCII);
    }

    /** The concatenation of classpath resources and literal pieces: a piece starting with '/' is a resource. */
    public static LuaScript of(String... pieces) {
        StringBuilder text = new StringBuilder();
        for (String piece : pieces) {
            text.append(piece.startsWith("/") ? resource(piece) : piece).append('\n');
        }
        return new LuaScript(text.toString());
    }

    public Object run(Jedis jedis, List<byte[]> keys, List<byte[]> args) {
        try {
            return jedis.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            return jedis.eval(source, keys, args);
        }
    }

    public String sha() {
        return new String(sha, StandardCharsets.US_ASCII);
    }

    public String source() {
        return new String(source, StandardCharsets.UTF_8);
    }

    private static String resource(String name) {
        try (InputStream in = LuaScript.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
