package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

/**
 * The global {@code cjson} of Redis scripts (Lua CJSON 2.1.0 as Redis bundles it): encode, decode, the
 * configuration functions, cjson.null and cjson.new (a fresh instance with its own settings).
 */
public final class CjsonLib {
    private static final List<String> BOOLEAN_OPTIONS = List.of("off", "on");
    private static final List<String> INVALID_NUMBER_OPTIONS = List.of("off", "on", "null");

    private CjsonLib() {
    }

    public static LuaTable create() {
        CjsonConfig config = new CjsonConfig();
        LuaTable cjson = new LuaTable();
        NamedFunction.register(cjson, "encode", args -> {
            checkOneArgument("encode", args);
            return CjsonEncoder.encode(config, args.arg1());
        });
        NamedFunction.register(cjson, "decode", args -> {
            checkOneArgument("decode", args);
            return CjsonDecoder.decode(config, LuaArgs.checkString("decode", args, 1));
        });
        NamedFunction.register(cjson, "encode_sparse_array", args -> {
            Varargs a = padded("encode_sparse_array", args, 3);
            LuaValue convert = enumOption("encode_sparse_array", a, 1, BOOLEAN_OPTIONS,
                    () -> config.sparseConvert, v -> config.sparseConvert = v);
            LuaValue ratio = integerOption("encode_sparse_array", a, 2, 0, Integer.MAX_VALUE,
                    () -> config.sparseRatio, v -> config.sparseRatio = v);
            LuaValue safe = integerOption("encode_sparse_array", a, 3, 0, Integer.MAX_VALUE,
                    () -> config.sparseSafe, v -> config.sparseSafe = v);
            return LuaValue.varargsOf(convert, ratio, safe);
        });
        NamedFunction.register(cjson, "encode_max_depth", args -> integerOption("encode_max_depth",
                padded("encode_max_depth", args, 1), 1, 1, Integer.MAX_VALUE,
                () -> config.encodeMaxDepth, v -> config.encodeMaxDepth = v));
        NamedFunction.register(cjson, "decode_max_depth", args -> integerOption("decode_max_depth",
                padded("decode_max_depth", args, 1), 1, 1, Integer.MAX_VALUE,
                () -> config.decodeMaxDepth, v -> config.decodeMaxDepth = v));
        NamedFunction.register(cjson, "encode_number_precision", args -> integerOption("encode_number_precision",
                padded("encode_number_precision", args, 1), 1, 1, 14,
                () -> config.encodeNumberPrecision, v -> config.encodeNumberPrecision = v));
        NamedFunction.register(cjson, "encode_keep_buffer", args -> enumOption("encode_keep_buffer",
                padded("encode_keep_buffer", args, 1), 1, BOOLEAN_OPTIONS,
                () -> config.encodeKeepBuffer, v -> config.encodeKeepBuffer = v));
        NamedFunction.register(cjson, "encode_invalid_numbers", args -> enumOption("encode_invalid_numbers",
                padded("encode_invalid_numbers", args, 1), 1, INVALID_NUMBER_OPTIONS,
                () -> config.encodeInvalidNumbers, v -> config.encodeInvalidNumbers = v));
        NamedFunction.register(cjson, "decode_invalid_numbers", args -> enumOption("decode_invalid_numbers",
                padded("decode_invalid_numbers", args, 1), 1, BOOLEAN_OPTIONS,
                () -> config.decodeInvalidNumbers, v -> config.decodeInvalidNumbers = v));
        NamedFunction.register(cjson, "new", args -> create());
        cjson.set("null", JsonNull.INSTANCE);
        cjson.set("_NAME", "cjson");
        cjson.set("_VERSION", "2.1.0");
        return cjson;
    }

    private static void checkOneArgument(String function, Varargs args) {
        if (args.narg() != 1) {
            throw LuaArgs.argError(function, 1, "expected 1 argument");
        }
    }

    /** At most count arguments; missing ones read as nil. */
    private static Varargs padded(String function, Varargs args, int count) {
        if (args.narg() > count) {
            throw LuaArgs.argError(function, count + 1, "found too many arguments");
        }
        return args;
    }

    /** Sets an integer setting when the argument is given (range errors always name argument #1). */
    private static LuaValue integerOption(String function, Varargs args, int index, int min, int max,
                                          IntSupplier get, IntConsumer set) {
        if (!args.arg(index).isnil()) {
            int value = (int) LuaArgs.checkInteger(function, args, index);
            if (value < min || value > max) {
                throw LuaArgs.argError(function, 1, "expected integer between " + min + " and " + max);
            }
            set.accept(value);
        }
        return LuaValue.valueOf(get.getAsInt());
    }

    /** Sets an enumerated setting from a boolean or an option name; answers a boolean when it is off/on. */
    private static LuaValue enumOption(String function, Varargs args, int index, List<String> options,
                                       IntSupplier get, IntConsumer set) {
        LuaValue arg = args.arg(index);
        if (!arg.isnil()) {
            if (arg.isboolean()) {
                set.accept(arg.toboolean() ? 1 : 0);
            } else {
                LuaString name = LuaArgs.checkString(function, args, index);
                int found = options.indexOf(name.tojstring());
                if (found < 0) {
                    throw LuaArgs.argError(function, index, "invalid option '" + name.tojstring() + "'");
                }
                set.accept(found);
            }
        }
        int setting = get.getAsInt();
        return setting <= 1 ? LuaValue.valueOf(setting == 1) : LuaValue.valueOf(options.get(setting));
    }
}
