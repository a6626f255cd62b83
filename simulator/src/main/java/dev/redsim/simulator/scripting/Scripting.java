package dev.redsim.simulator.scripting;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lua scripting of one server (Redis's eval.c and script_lua.c): the Lua state, the EVAL script cache, the
 * client scripts run their commands as, and the running of one script with KEYS and ARGV. Runs on the engine
 * thread; scripts are atomic because nothing else runs while one does.
 */
public final class Scripting implements CommandProcessor.DenyOomRule {
    private static final String CHUNK = "user_script";

    private final Engine engine;
    private final CommandProcessor commands;
    private final ScriptRunner runner;
    private final Map<String, CachedScript> cache = new LinkedHashMap<>();
    private final RedisRand48 random = new RedisRand48();
    private final Functions functions = new Functions(this);
    private ClientConnection scriptClient;
    private ScriptCommandCaller caller;
    private Globals globals;
    private ScriptRun current;

    public Scripting(CommandProcessor commands, ScriptRunner runner) {
        this.engine = commands.engine();
        this.commands = commands;
        this.runner = runner;
        commands.denyOomRule(this); // not this::denyOom: no lambda on a start's path
    }

    /** Runs scripts on the script thread and hands long ones over to busy mode (decision 0004). */
    public ScriptRunner runner() {
        return runner;
    }

    /** The Lua state is built on first use: servers that never run a script never pay for it. */
    private Globals globals() {
        if (globals == null) {
            globals = newLuaState();
        }
        return globals;
    }

    /**
     * A fresh sandboxed Lua state whose redis.call runs as this server's script client (EVAL's state, and
     * the separate state FUNCTION libraries live in). The client outlives SCRIPT FLUSH, so both states share it.
     */
    Globals newLuaState() {
        if (scriptClient == null) {
            scriptClient = new ClientConnection(0, null, new Reply(), engine,
                    engine.time().millis());
            scriptClient.authenticated(true);
            caller = new ScriptCommandCaller(commands, scriptClient);
        }
        Globals state = LuaSandbox.create(RedisApi.create(caller, () -> current), random);
        runner.installHook(state); // time limit, SCRIPT KILL / FUNCTION KILL
        return state;
    }

    /** The FUNCTION libraries (Redis 7.0 functions), which share this server's script client and runner. */
    public Functions functions() {
        return functions;
    }

    // ---- the EVAL cache ----

    /** Compiles a script (if new) and keeps it under its SHA1; compile and shebang errors as Redis words them. */
    public String load(byte[] body) {
        String sha = Sha1.hex(body);
        if (!cache.containsKey(sha)) {
            cache.put(sha, compile(sha, body));
        }
        return sha;
    }

    public boolean exists(String sha) {
        return cache.containsKey(sha.toLowerCase(java.util.Locale.ROOT));
    }

    /** SCRIPT FLUSH: forgets every script and starts a fresh Lua state, as Redis does. */
    public void flush() {
        cache.clear();
        globals = null;
    }

    public int cachedScripts() {
        return cache.size();
    }

    /** The size of the cached script bodies (for INFO's used_memory_scripts_eval). */
    public long cachedScriptBytes() {
        long bytes = 0;
        for (CachedScript script : cache.values()) {
            bytes += script.body().length;
        }
        return bytes;
    }

    private CachedScript compile(String sha, byte[] body) {
        ScriptFlags flags = ScriptFlags.parse(body);
        byte[] source = flags.shebang() ? java.util.Arrays.copyOfRange(body, flags.shebangLength(), body.length) : body;
        try {
            LuaValue function = globals().load(new ByteArrayInputStream(source), "@" + CHUNK, "t", globals());
            return new CachedScript(sha, body, flags, function);
        } catch (LuaError e) {
            throw new RedisError("ERR Error compiling script (new function): " + CompileErrors.luaText(e.getMessage()));
        }
    }

    // ---- running ----

    /** EVAL and EVALSHA (and their _RO forms): args[2] is numkeys, keys and arguments follow. */
    public void eval(CommandContext ctx, boolean bySha, boolean readOnlyCommand) {
        int numkeys = numkeys(ctx);
        CachedScript script;
        if (bySha) {
            script = cache.get(ctx.text(1).toLowerCase(java.util.Locale.ROOT));
            if (script == null) {
                throw new RedisError("NOSCRIPT No matching script. Please use EVAL.");
            }
        } else {
            script = cache.get(load(ctx.arg(1)));
        }
        if (script.flags().noCluster()) {
            refuseOnClusterNode();
        }
        if (readOnlyCommand && script.flags().shebang() && !script.flags().noWrites()) {
            throw new RedisError("ERR Can not execute a script with write flag using *_ro command.");
        }
        if (script.flags().denyOom()) {
            refuseIfOutOfMemory();
        }
        run(ctx, script, numkeys, readOnlyCommand || script.flags().noWrites(), script.flags().allowOom(),
                script.flags().crossSlotAllowed());
    }

    /** scriptPrepareForRun: a script (or function) flagged no-cluster does not run on a cluster node. */
    void refuseOnClusterNode() {
        if ("yes".equals(engine.config().get("cluster-enabled"))) {
            throw new RedisError("ERR Can not run script on cluster, 'no-cluster' flag is set.");
        }
    }

    /**
     * scriptPrepareForRun's memory check, for a script with flags that may write and does not declare allow-oom:
     * it does not start when memory was over maxmemory as the command began. (A client's own EVAL of such a
     * script is refused before it runs, as a denyoom command; this catches the rest, e.g. one queued in MULTI.)
     */
    void refuseIfOutOfMemory() {
        if (engine.preCommandOom()) {
            throw new RedisError("OOM allow-oom flag is not set on the script, can not run it when used memory > "
                    + "'maxmemory'");
        }
    }

    /**
     * Whether a call of EVAL, EVALSHA or FCALL (or their _RO forms) is denyoom, which depends on the script's flags
     * (Redis's evalGetCommandFlags / fcallGetCommandFlags): a script not cached (EVALSHA, FCALL of an unknown
     * function) or without a shebang keeps the command's own flags.
     */
    @Override
    public boolean denyOom(CommandSpec spec, byte[][] args) {
        boolean byDefault = spec.has(CommandFlag.DENYOOM);
        if (args.length < 2) {
            return byDefault;
        }
        switch (spec.fullName()) {
            case "eval", "eval_ro" -> {
                CachedScript script = cache.get(Sha1.hex(args[1]));
                if (script != null) {
                    return script.flags().shebang() ? script.flags().denyOom() : byDefault;
                }
                try {
                    ScriptFlags flags = ScriptFlags.parse(args[1]);
                    return flags.shebang() ? flags.denyOom() : byDefault;
                } catch (RedisError badShebang) {
                    return byDefault; // EVAL reports it when it runs
                }
            }
            case "evalsha", "evalsha_ro" -> {
                if (args[1].length != 40) {
                    return byDefault;
                }
                CachedScript script = cache.get(new String(args[1], StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
                return script != null && script.flags().shebang() ? script.flags().denyOom() : byDefault;
            }
            case "fcall", "fcall_ro" -> {
                return functions.denyOom(new String(args[1], StandardCharsets.UTF_8), byDefault);
            }
            default -> {
                return byDefault;
            }
        }
    }

    private static int numkeys(CommandContext ctx) {
        long numkeys = ctx.longArg(2);
        if (numkeys > ctx.argc() - 3) {
            throw new RedisError("ERR Number of keys can't be greater than number of args");
        }
        if (numkeys < 0) {
            throw new RedisError("ERR Number of keys can't be negative");
        }
        return (int) numkeys;
    }

    private void run(CommandContext ctx, CachedScript script, int numkeys, boolean readOnly, boolean allowOom,
                     boolean allowCrossSlot) {
        Globals g = globals();
        byte[][] args = ctx.args();
        Runnable setGlobals = () -> {
            LuaSandbox.setScriptGlobal(g, "KEYS", strings(args, 3, 3 + numkeys));
            LuaSandbox.setScriptGlobal(g, "ARGV", strings(args, 3 + numkeys, args.length));
        };
        setGlobals.run();
        execute(ctx, g, script.function(), LuaValue.NONE, script.sha(), CHUNK, readOnly, allowOom, allowCrossSlot,
                script.provablyShort(), setGlobals);
    }

    /**
     * Runs a script body (EVAL) or a library function (FCALL, with its keys and args as {@code callArgs}) for
     * the calling client and writes its reply; errors name {@code name} (the SHA1 or the function) and the
     * {@code chunk} the code was loaded as. A body that provably ends soon runs on the engine thread itself; so
     * does, until it runs long, one that can run again from its start ({@code setGlobals} not null: an EVAL
     * script, which keeps nothing from one run to the next, unlike a library's functions; decision 0030).
     */
    void execute(CommandContext ctx, Globals state, LuaValue body, Varargs callArgs, String name, String chunk,
            boolean readOnly, boolean allowOom, boolean allowCrossSlot, boolean provablyShort, Runnable setGlobals) {
        globals();
        ClientConnection caller = ctx.client();
        scriptClient.db(caller.db());
        ScriptRun run = new ScriptRun(caller, ctx.spec().fullName(), name, readOnly, allowOom, allowCrossSlot);
        current = run;
        engine.scriptTimeSnapshot(true);
        Runnable prepareReplay = null;
        if (setGlobals != null && !provablyShort) {
            run.recording = new CallRecording();
            long randomState = random.state();
            prepareReplay = () -> { // the engine thread stopped the script: it runs again on the script thread
                run.recording.startReplay();
                run.resp = 2;
                random.restore(randomState);
                setGlobals.run(); // the first run may have changed KEYS and ARGV
            };
        }
        // Here, or on the script thread (ScriptRunner): the engine waits, or goes busy when the script runs long.
        runner.run(ctx, CHUNK.equals(chunk), provablyShort, () -> run.wrote, () -> {
            ScriptHook hook = ScriptHook.of(state);
            hook.begin();
            ScriptExecution execution = runner.current();
            if (execution != null && execution.speculationDeadline() != 0) {
                hook.speculateUntil(execution.speculationDeadline());
            }
            try {
                runBody(hook, run, state, body, callArgs, name, chunk);
            } catch (ReplayDiverged e) {
                throw new RedisError("ERR Error running script " + name + ": redsim ran it again on its script "
                        + "thread after its time on the engine thread and it took another path (" + e.getMessage()
                        + "); its commands so far stay applied");
            } finally {
                hook.end();
            }
        }, () -> {
            current = null;
            engine.scriptTimeSnapshot(false);
        }, prepareReplay);
    }

    /** One run of a script's body, on whichever thread: its reply written, or its error as Redis words it. */
    private void runBody(ScriptHook hook, ScriptRun run, Globals state, LuaValue body, Varargs callArgs, String name,
            String chunk) {
        ClientConnection caller = run.caller;
        try {
            LuaValue result = body.invoke(callArgs).arg1();
            if (run.recording != null) {
                run.recording.checkEnded();
            }
            LuaToReply.write(caller.reply(), result, run.resp, engine.stats()::countError);
        } catch (LuaError e) {
            if (run.recording != null) {
                run.recording.checkEnded();
            }
            if (hook.memory().exhausted()) {
                throw outOfMemory(name);
            }
            LuaError named = ScriptHook.withNames(state, e);
            String text = ScriptErrors.runtime(named, name, chunk, TailCalls.lastPosition(body, chunk));
            throw e instanceof ScriptError raised && raised.counted() ? RedisError.countedAlready(text)
                    : new RedisError(text);
        } catch (StackOverflowError e) {
            if (hook.speculating()) {
                throw SpeculationAbort.INSTANCE; // the engine thread's stack is the smaller one
            }
            throw new RedisError("ERR " + chunk + ": stack overflow script: " + name + ", on @" + chunk + ":?.");
        } catch (OutOfMemoryError e) { // the script's values are unreachable now: the heap is back
            hook.memory().exhaustedByJvm();
            throw outOfMemory(name);
        }
    }

    /** Lua's memory error has no position: Redis words it as any error that is no table (luaCallFunction). */
    private static RedisError outOfMemory(String name) {
        return new RedisError("ERR Error running script " + name + ", " + ScriptMemory.NOT_ENOUGH_MEMORY);
    }

    private static LuaTable strings(byte[][] args, int from, int to) {
        LuaTable table = new LuaTable(Math.max(0, to - from), 0);
        for (int i = from; i < to; i++) {
            table.rawset(i - from + 1, LuaString.valueOf(args[i]));
        }
        return table;
    }

    /**
     * SCRIPT KILL (functionKill false) and FUNCTION KILL (true): asks the busy script to stop at its next
     * checkpoint; returns normally when it will (the command then replies +OK), or throws Redis's refusal.
     * Runs while the script is paused (BusyMode.whilePaused), so its state can be read safely.
     */
    public void killRunning(boolean functionKill) {
        var running = engine.busy().script();
        if (running == null) {
            throw new RedisError("NOTBUSY No scripts in execution right now.");
        }
        if (running.wrote()) {
            throw new RedisError("UNKILLABLE Sorry the script already executed write commands against the dataset. "
                    + "You can either wait the script termination or kill the server in a hard way using the "
                    + "SHUTDOWN NOSAVE command.");
        }
        if (running.eval() == functionKill) {
            throw new RedisError(engine.busy().rejection()); // the other kind of script runs: 7.0 answers -BUSY
        }
        running.kill();
    }

    /** Whether a script is running now (the engine is inside EVAL). */
    public boolean running() {
        return current != null;
    }
}
