package dev.redsim.simulator.command;

import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.protocol.ChunkedCommand;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.util.ByteText;
import dev.redsim.simulator.util.ChunkedBytes;

import java.nio.charset.StandardCharsets;

/**
 * Everything one command call sees: its arguments, its client, the selected database, the reply writer and
 * the engine. Argument helpers fail with Redis's own error texts. Each call gets its own (as each Redis command
 * sees its client's argv): a command that runs others (EXEC, a script, a served blocked client) never finds its
 * context pointed elsewhere afterwards, and a blocked command keeps its context until it is served.
 */
public final class CommandContext {
    private final CommandProcessor processor;
    private final Engine engine;
    private final ClientConnection client;
    private final byte[][] args;
    private final CommandSpec spec;
    /** The command's value if it came in chunks (decision 0048), or null. */
    private final ChunkedCommand chunked;

    /** What the call propagates instead of its own arguments (rewriteClientCommandVector), or null. */
    private byte[][] propagateAs;
    private boolean propagationPrevented;
    private boolean propagationForced;
    /**
     * The key {@link #key} made last, and its argument's index (-1 for none): a command and the after-call measuring
     * of its keys ask for the same key, which then keeps its hash (hashing it again was the largest part of INCR's
     * engine time with -P 16 after the other costs went).
     */
    private Bytes lastKey;
    private int lastKeyIndex = -1;

    CommandContext(CommandProcessor processor, ClientConnection client, byte[][] args, CommandSpec spec,
                   ChunkedCommand chunked) {
        this.processor = processor;
        this.engine = processor.engine();
        this.client = client;
        this.args = args;
        this.spec = spec;
        this.chunked = chunked;
    }

    public Engine engine() {
        return engine;
    }

    /** The command table and the call path, for commands that run or describe other commands. */
    public CommandProcessor processor() {
        return processor;
    }

    public ClientConnection client() {
        return client;
    }

    public CommandSpec spec() {
        return spec;
    }

    public Reply reply() {
        return client.reply();
    }

    public Database db() {
        Database db = engine.database(client.db());
        db.touching(!client.noTouch());
        return db;
    }

    public long now() {
        return engine.time().millis();
    }

    /**
     * This call with other arguments, as Redis's replaceClientCommandVector: a command that rewrites itself into
     * another one (GEOADD into ZADD) runs that one's handler with it, still counted as itself.
     */
    public CommandContext withArgs(byte[][] replacement) {
        return new CommandContext(processor, client, replacement, spec, null);
    }

    // ---- arguments ----

    public int argc() {
        return args.length;
    }

    /**
     * The arguments as they arrived: a value still in chunks has null in its place (see {@link #chunkedArg}); only
     * the commands that store such a value meet it, and their keys and options are never in chunks.
     */
    public byte[][] args() {
        return args;
    }

    /** Argument {@code i}; a value that came in chunks is put in one array first (for readers that need it so). */
    public byte[] arg(int i) {
        byte[] arg = args[i];
        return arg != null ? arg : chunked.gathered()[i];
    }

    /** Argument {@code i} if it is a value still in chunks, else null (then {@link #arg} has it). */
    public ChunkedBytes chunkedArg(int i) {
        return chunked != null ? chunked.value(i) : null;
    }

    public Bytes key(int i) {
        if (i == lastKeyIndex) {
            return lastKey;
        }
        Bytes key = Bytes.wrap(args[i]);
        lastKey = key;
        lastKeyIndex = i;
        return key;
    }

    /**
     * addReplySubcommandSyntaxError: "unknown subcommand or wrong number of arguments for '<subcommand>'. Try
     * <COMMAND> HELP.", the subcommand as the client sent it and the command as it typed it, in capitals.
     */
    public RedisError subcommandSyntaxError() {
        return new RedisError("ERR unknown subcommand or wrong number of arguments for '" + ByteText.cString(args[1], 128)
                + "'. Try " + ByteText.decode(args[0]).toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    public String text(int i) {
        return ByteText.decode(args[i]);
    }

    /** Case-insensitive comparison of an argument with a keyword. */
    public boolean is(int i, String keyword) {
        byte[] a = args[i];
        if (a.length != keyword.length()) {
            return false;
        }
        for (int j = 0; j < a.length; j++) {
            int c = a[j] & 0xff;
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            int k = keyword.charAt(j);
            if (k >= 'A' && k <= 'Z') {
                k += 32;
            }
            if (c != k) {
                return false;
            }
        }
        return true;
    }

    /** An integer argument; "value is not an integer or out of range" otherwise. */
    public long longArg(int i) {
        Long v = Numbers.parseLongStrict(args[i]);
        if (v == null) {
            throw RedisError.NOT_INTEGER;
        }
        return v;
    }

    /** An integer argument with a command-specific error text. */
    public long longArg(int i, RedisError error) {
        Long v = Numbers.parseLongStrict(args[i]);
        if (v == null) {
            throw error;
        }
        return v;
    }

    /** A float argument; "value is not a valid float" otherwise. */
    public double doubleArg(int i) {
        Double v = Numbers.parseDouble(args[i]);
        if (v == null) {
            throw RedisError.NOT_FLOAT;
        }
        return v;
    }

    // ---- replication: what this call puts into the stream ----

    /**
     * The call goes to replicas as this command instead of its own arguments (Redis's rewriteClientCommandVector:
     * SET ... EX as SET ... PXAT, BLPOP as LPOP, GETDEL as DEL), if it changed data.
     */
    public void propagateAs(byte[]... argv) {
        this.propagateAs = argv;
    }

    /** As {@link #propagateAs(byte[]...)}, from text arguments and raw ones mixed (byte[] or anything printed). */
    public void propagateAs(Object... argv) {
        byte[][] out = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            out[i] = rewritten(argv[i]);
        }
        this.propagateAs = out;
    }

    /**
     * Argument {@code i} as it arrived, for a rewrite: null while its value is still in chunks, which happens only
     * while nothing is fed to a replica (the processor puts a value in one array when something reads the stream),
     * so that rewrite is never read; its place in it stays null, as in {@link #args()}.
     */
    public byte[] sentArg(int i) {
        return args[i];
    }

    /** A rewrite's argument as bytes: raw ones as they are (null: see {@link #sentArg}), anything else printed. */
    private static byte[] rewritten(Object arg) {
        return arg == null || arg instanceof byte[] ? (byte[]) arg
                : String.valueOf(arg).getBytes(StandardCharsets.UTF_8);
    }

    /** The arguments the call propagates: its rewrite, or its own. */
    public byte[][] propagatedArgs() {
        return propagateAs != null ? propagateAs : args;
    }

    /**
     * The call itself is not propagated (preventCommandPropagation): its effects went to the stream otherwise
     * (a script's commands, SPOP's SREMs, a blocking pop served later).
     */
    public void preventPropagation() {
        this.propagationPrevented = true;
    }

    public boolean propagationPrevented() {
        return propagationPrevented;
    }

    /** The call is propagated even if it changed nothing (forceCommandPropagation: FLUSHALL, PUBLISH). */
    public void forcePropagation() {
        this.propagationForced = true;
    }

    public boolean propagationForced() {
        return propagationForced;
    }

    /** alsoPropagate: one more command for the stream, in this call's database, before the call's own. */
    public void alsoPropagate(Object... argv) {
        byte[][] out = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            out[i] = rewritten(argv[i]);
        }
        engine.propagation().propagate(client.db(), out);
    }

    /**
     * A blocked command was served outside any call (handleClientsBlockedOnKeys): what it took goes to the stream
     * now, as its rewrite (BLPOP as LPOP), alone.
     */
    public void propagateServed() {
        if (propagateAs != null && !propagationPrevented) {
            engine.propagation().propagate(client.db(), propagateAs);
        }
        propagateAs = null;
    }

    // ---- effects that other parts of the server follow ----

    /** A key was changed by this command (Redis's signalModifiedKey): invalidates WATCH and cached copies. */
    public void signalModified(Bytes key) {
        engine.signalModifiedKey(client, client.db(), key);
    }

    /** Reports a keyspace event of a class from {@link dev.redsim.simulator.engine.KeyspaceEvents}. */
    public void notifyEvent(int type, String event, Bytes key) {
        engine.notifyKeyspaceEvent(type, event, key, client.db());
    }

    /** Counts changes for INFO (rdb_changes_since_last_save), as server.dirty. */
    public void dirty(long changes) {
        engine.addDirty(changes);
    }
}
