package dev.redsim.simulator.scripting;

import dev.redsim.simulator.command.AccessControl;
import dev.redsim.simulator.command.ClusterGate;
import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandProcessor;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.protocol.Outgoing;
import dev.redsim.simulator.server.ClientConnection;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import dev.redsim.simulator.util.KeyHashSlot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * redis.call and redis.pcall: checks a command the way Redis checks commands from scripts (its own error
 * texts), runs it through the engine's normal call path for the script's client, and turns the RESP reply
 * that client received into Lua values.
 */
final class ScriptCommandCaller {
    private final CommandProcessor commands;
    private final ClientConnection scriptClient;

    ScriptCommandCaller(CommandProcessor commands, ClientConnection scriptClient) {
        this.commands = commands;
        this.scriptClient = scriptClient;
    }

    /** @param raise true for redis.call (errors are raised), false for redis.pcall (errors are returned) */
    Varargs call(ScriptRun run, Varargs args, boolean raise) {
        if (args.narg() == 0) {
            return fail("ERR Please specify at least one argument for this redis lib call", raise);
        }
        byte[][] argv = new byte[args.narg()][];
        for (int i = 0; i < argv.length; i++) {
            LuaValue arg = args.arg(i + 1);
            if (arg.type() == LuaValue.TNUMBER) {
                argv[i] = LuaNumbers.toArgument(arg.todouble()).getBytes(StandardCharsets.US_ASCII);
            } else if (arg.type() == LuaValue.TSTRING) {
                LuaString s = arg.checkstring();
                argv[i] = new byte[s.m_length];
                System.arraycopy(s.m_bytes, s.m_offset, argv[i], 0, s.m_length);
            } else {
                return fail("ERR Lua redis lib command arguments must be strings or integers", raise);
            }
        }
        CallRecording recording = run.recording;
        if (recording != null && recording.replayPending()) {
            return replay(recording, argv, raise, run.resp);
        }
        CommandSpec spec = commands.table().lookup(argv[0]);
        if (spec != null && spec.hasSubcommands() && argv.length >= 2) {
            spec = spec.subcommands().get(CommandTable.lowerAscii(argv[1]));
        }
        if (spec == null) {
            return reject(run, argv, refusalOfUnimplemented(argv), raise);
        }
        if (!spec.arityAccepts(argv.length)) {
            return reject(run, argv, WRONG_ARITY, raise);
        }
        if (spec.has(CommandFlag.NOSCRIPT)) {
            return reject(run, argv, NOT_ALLOWED, raise);
        }
        AccessControl access = commands.accessControl();
        String refusal = access == null ? null : access.refuseInScript(run.caller, run.callerCommand, spec, argv);
        if (refusal != null) {
            return reject(run, argv, refusal, raise); // the script runs as its caller's user
        }
        if (spec.has(CommandFlag.WRITE) && run.readOnly) {
            return reject(run, argv, "ERR Write commands are not allowed from read-only scripts.", raise);
        }
        // scriptVerifyWriteCommandAllow: a read-only replica refuses a script's writes (scripts reach a replica only
        // through a client: its master sends their effects)
        if (spec.has(CommandFlag.WRITE) && commands.engine().replication().upstream() != null
                && "yes".equals(commands.engine().config().get("replica-read-only"))) {
            return reject(run, argv, "READONLY You can't write against a read only replica.", raise);
        }
        // scriptVerifyOOM: over maxmemory when the script started, a command that may grow memory is refused,
        // unless the script declared allow-oom or has written already (it cannot be stopped halfway)
        if (!run.allowOom && !run.wrote && spec.has(CommandFlag.DENYOOM) && commands.engine().preCommandOom()) {
            return reject(run, argv, OOM, raise);
        }
        if (spec.has(CommandFlag.WRITE)) {
            run.wrote = true;
        }
        ClusterGate cluster = commands.clusterGate();
        if (cluster != null) {
            String elsewhere = clusterRefusal(cluster, run, argv, spec);
            if (elsewhere != null) {
                return reject(run, argv, elsewhere, raise);
            }
        }
        return execute(run, argv, spec, raise);
    }

    /**
     * scriptVerifyClusterState: on a cluster node a script's command may only touch keys this node serves, all of
     * one slot; and unless the script may cross slots, of the slot its caller's command fixed (the declared keys',
     * EXEC's), or else of the first slot the script touched.
     */
    private static String clusterRefusal(ClusterGate cluster, ScriptRun run, byte[][] argv, CommandSpec spec) {
        List<byte[]> keys = new ArrayList<>();
        for (int index : spec.clusterKeyIndexes(argv)) {
            keys.add(argv[index]);
        }
        if (keys.isEmpty()) {
            return null;
        }
        String refusal = cluster.refusal(run.caller, keys, spec.has(CommandFlag.READONLY));
        if (ClusterGate.CLUSTER_DOWN.equals(refusal)) {
            return "ERR Script attempted to execute a command while the cluster is down";
        }
        if (ClusterGate.CLUSTER_DOWN_READ_ONLY.equals(refusal)) {
            return "ERR Script attempted to execute a write command while the cluster is down and readonly";
        }
        if (refusal != null) {
            return "ERR Script attempted to access a non local key in a cluster node";
        }
        int slot = KeyHashSlot.of(keys.get(0));
        if (!run.allowCrossSlot) {
            if (run.caller.clusterSlot() == -1) {
                run.caller.clusterSlot(slot);
            } else if (run.caller.clusterSlot() != slot) {
                return "ERR Script attempted to access keys that do not hash to the same slot";
            }
        }
        return null;
    }

    private static final String OOM = "OOM command not allowed when used memory > 'maxmemory'.";
    private static final String UNKNOWN = "ERR Unknown Redis command called from script";
    private static final String WRONG_ARITY = "ERR Wrong number of args calling Redis command from script";
    private static final String NOT_ALLOWED = "ERR This Redis command is not allowed from script";

    /**
     * A command the simulator lacks: when Redis has it, Redis's own checks still say why a script may not call
     * it (wrong arity, a no-script command such as CLUSTER RESET); otherwise it is unknown, as to a client.
     */
    private String refusalOfUnimplemented(byte[][] argv) {
        String name = CommandTable.lowerAscii(argv[0]);
        CommandDescription description = name.indexOf('|') >= 0 ? null : commands.table().catalog().describe(name);
        if (description != null && !description.subcommands().isEmpty() && argv.length >= 2) {
            String sub = CommandTable.lowerAscii(argv[1]);
            description = description.subcommands().get(sub);
        }
        if (description == null) {
            return UNKNOWN;
        }
        if (!description.arityAccepts(argv.length)) {
            return WRONG_ARITY;
        }
        return description.has(CommandFlag.NOSCRIPT) ? NOT_ALLOWED : UNKNOWN;
    }

    private Varargs execute(ScriptRun run, byte[][] argv, CommandSpec spec, boolean raise) {
        scriptClient.protocol(run.resp);
        scriptClient.user(run.caller.user());
        commands.callFromScript(scriptClient, argv, spec);
        Outgoing out = scriptClient.reply().pending();
        try {
            // a reply of up to a megabyte is one slice of the script client's reply buffer: read where it lies
            boolean oneSlice = out.count() == 1;
            byte[] reply = oneSlice ? out.array(0) : out.toArray();
            int from = oneSlice ? out.offset(0) : 0;
            if (run.recording != null) {
                run.recording.executed(argv, raise, run.resp, reply, from, Math.toIntExact(out.bytes()));
            }
            if (RespToLua.isError(reply, from)) {
                return failCounted(RespToLua.errorText(reply, from), raise); // the command's call counted its error
            }
            return RespToLua.read(reply, from);
        } finally {
            scriptClient.reply().discardPending();
        }
    }

    /**
     * A command refused before it ran (scriptCall's checks): its error counts in INFO errorstats now, whether the
     * script raises it, returns it or drops it, and only now.
     */
    private Varargs reject(ScriptRun run, byte[][] argv, String message, boolean raise) {
        commands.engine().stats().countError(message);
        if (run.recording != null) {
            run.recording.rejected(argv, raise, run.resp, message);
        }
        return failCounted(message, raise);
    }

    /**
     * A call the script made on the engine thread before it moved to the script thread: the same answer again,
     * without running the command or counting its error a second time.
     */
    private static Varargs replay(CallRecording recording, byte[][] argv, boolean raise, int resp) {
        String rejection = recording.nextRejection(argv, raise, resp);
        if (rejection != null) {
            return failCounted(rejection, raise);
        }
        byte[] replies = recording.replies();
        int from = recording.lastReplyAt();
        if (RespToLua.isError(replies, from)) {
            return failCounted(RespToLua.errorText(replies, from), raise);
        }
        return RespToLua.read(replies, from);
    }

    private static Varargs failCounted(String message, boolean raise) {
        if (raise) {
            throw ScriptError.counted(message);
        }
        return RespToLua.countedError(LuaValue.valueOf(message));
    }

    /** An error of redis.call's own argument checks: counted when it ends the script, as any script error. */
    private static Varargs fail(String message, boolean raise) {
        if (raise) {
            throw ScriptError.redis(message);
        }
        return RespToLua.single(LuaValue.valueOf("err"), LuaValue.valueOf(message));
    }
}
