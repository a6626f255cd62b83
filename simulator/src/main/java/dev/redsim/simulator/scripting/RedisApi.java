package dev.redsim.simulator.scripting;

import dev.redsim.simulator.version.RedisVersion;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.VarArgFunction;

import java.util.function.Supplier;

/** The "redis" table scripts see: call, pcall, the reply helpers, setresp, and the accepted no-ops. */
final class RedisApi {
    static final String VERSION = RedisVersion.IMITATED.version();
    static final int VERSION_NUM = RedisVersion.IMITATED.number();

    private RedisApi() {
    }

    static LuaTable create(ScriptCommandCaller caller, Supplier<ScriptRun> current) {
        LuaTable redis = new LuaTable();
        redis.rawset("call", function(args -> caller.call(current.get(), args, true)));
        redis.rawset("pcall", function(args -> caller.call(current.get(), args, false)));
        redis.rawset("sha1hex", function(args -> {
            if (args.narg() != 1) {
                throw ScriptError.redis("ERR wrong number of arguments");
            }
            // the Lua string's own bytes: tojstring() would decode them as UTF-8 and change binary data
            org.luaj.vm2.LuaString text = args.checkstring(1);
            byte[] bytes = new byte[text.m_length];
            text.copyInto(0, bytes, 0, bytes.length);
            return LuaValue.valueOf(Sha1.hex(bytes));
        }));
        redis.rawset("error_reply", replyHelper("err", "ERR "));
        redis.rawset("status_reply", replyHelper("ok", ""));
        redis.rawset("setresp", function(args -> {
            if (args.narg() != 1) {
                throw ScriptError.redis("ERR redis.setresp() requires one argument.");
            }
            int resp = args.checkint(1);
            if (resp != 2 && resp != 3) {
                throw ScriptError.redis("ERR RESP version must be 2 or 3.");
            }
            current.get().resp = resp;
            return LuaValue.NONE;
        }));
        redis.rawset("log", function(args -> {
            if (args.narg() < 2) {
                throw ScriptError.redis("ERR redis.log() requires two arguments or more.");
            }
            if (!args.isnumber(1)) {
                throw ScriptError.redis("ERR First argument must be a number (log level).");
            }
            return LuaValue.NONE;
        }));
        redis.rawset("set_repl", function(args -> {
            if (args.narg() != 1) {
                throw ScriptError.redis("ERR redis.set_repl() requires one argument.");
            }
            int flags = args.checkint(1);
            if ((flags & ~3) != 0) {
                throw ScriptError.redis("ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
            }
            return LuaValue.NONE;
        }));
        redis.rawset("replicate_commands", function(args -> LuaValue.TRUE));
        redis.rawset("breakpoint", function(args -> LuaValue.FALSE));
        redis.rawset("debug", function(args -> LuaValue.NONE));
        redis.rawset("acl_check_cmd", function(args -> LuaValue.TRUE));
        redis.rawset("REPL_NONE", 0);
        redis.rawset("REPL_AOF", 1);
        redis.rawset("REPL_SLAVE", 2);
        redis.rawset("REPL_REPLICA", 2);
        redis.rawset("REPL_ALL", 3);
        redis.rawset("LOG_DEBUG", 0);
        redis.rawset("LOG_VERBOSE", 1);
        redis.rawset("LOG_NOTICE", 2);
        redis.rawset("LOG_WARNING", 3);
        redis.rawset("REDIS_VERSION", VERSION);
        redis.rawset("REDIS_VERSION_NUM", VERSION_NUM);
        return redis;
    }

    /** redis.error_reply / status_reply: a one-field table; error texts get "ERR " unless they start with '-'. */
    private static LuaValue replyHelper(String field, String defaultCode) {
        return new VarArgFunction() {
            @Override
            public LuaValue invoke(Varargs args) {
                LuaValue text = args.arg1();
                if (args.narg() != 1 || text.type() != LuaValue.TSTRING) {
                    // Redis returns (does not raise) an error table for a bad call
                    return RespToLua.single(LuaValue.valueOf("err"),
                            LuaValue.valueOf("ERR wrong number or type of arguments"));
                }
                String s = text.tojstring();
                if (!defaultCode.isEmpty()) {
                    s = s.startsWith("-") ? s.substring(1) : s;
                    if (s.indexOf(' ') < 0) {
                        s = defaultCode + s; // a single word is no error code: Redis adds the generic one
                    }
                }
                return RespToLua.single(LuaValue.valueOf(field), LuaValue.valueOf(s));
            }
        };
    }

    private static LuaValue function(JavaFunction.Body body) {
        return JavaFunction.of(body);
    }
}
