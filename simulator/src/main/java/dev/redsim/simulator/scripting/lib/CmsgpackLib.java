package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** The global {@code cmsgpack} of Redis scripts (lua-cmsgpack 0.4.0): pack, unpack, unpack_one, unpack_limit. */
public final class CmsgpackLib {
    private CmsgpackLib() {
    }

    public static LuaTable create() {
        LuaTable cmsgpack = new LuaTable();
        NamedFunction.register(cmsgpack, "pack", CmsgpackLib::pack);
        NamedFunction.register(cmsgpack, "unpack", args -> unpack("unpack", args, args.narg(), 0, 0));
        NamedFunction.register(cmsgpack, "unpack_one", args -> {
            long offset = LuaArgs.optInteger("unpack_one", args, 2, 0);
            return unpack("unpack_one", args, 1, 1, offset);
        });
        NamedFunction.register(cmsgpack, "unpack_limit", args -> {
            long limit = LuaArgs.checkInteger("unpack_limit", args, 2);
            long offset = LuaArgs.optInteger("unpack_limit", args, 3, 0);
            return unpack("unpack_limit", args, 1, limit, offset);
        });
        cmsgpack.set("_NAME", "cmsgpack");
        cmsgpack.set("_VERSION", "lua-cmsgpack 0.4.0");
        cmsgpack.set("_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo");
        cmsgpack.set("_DESCRIPTION", "MessagePack C implementation for Lua");
        return cmsgpack;
    }

    /** Every argument packed, one after the other. */
    private static Varargs pack(Varargs args) {
        if (args.narg() == 0) {
            throw LuaArgs.argError("pack", 0, "MessagePack pack needs input.");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MsgpackEncoder encoder = new MsgpackEncoder(out);
        for (int i = 1; i <= args.narg(); i++) {
            encoder.encode(args.arg(i), 0);
        }
        return LuaString.valueUsing(out.toByteArray());
    }

    /**
     * Decodes up to limit values from offset (both 0: every value, and no offset in the answer);
     * otherwise answers the next offset (-1 at the end) then the values. stackBase is how many
     * arguments stay on the C library's stack, which counts against its limit.
     */
    private static Varargs unpack(String function, Varargs args, int stackBase, long limit, long offset) {
        byte[] data = LuaArgs.bytes(LuaArgs.checkString(function, args, 1));
        boolean all = limit == 0 && offset == 0;
        if (offset < 0 || limit < 0) {
            throw LuaArgs.error("Invalid request to unpack with offset of " + (int) offset + " and limit of "
                    + data.length + ".");
        }
        if (offset > data.length) {
            throw LuaArgs.error("Start offset " + (int) offset + " greater than input length " + data.length + ".");
        }
        long max = all ? Integer.MAX_VALUE : limit;
        MsgpackDecoder decoder = new MsgpackDecoder(data, (int) offset);
        List<LuaValue> values = new ArrayList<>();
        while (decoder.left() > 0 && values.size() < max) {
            try {
                values.add(decoder.decode(stackBase + values.size()));
            } catch (MsgpackDecoder.Failure failure) {
                throw LuaArgs.error(failure.missingBytes ? "Missing bytes in input." : "Bad data format in input.");
            }
        }
        if (!all) {
            if (stackBase + values.size() + 1 > MsgpackDecoder.MAX_C_STACK) {
                throw LuaArgs.error("stack overflow (in function mp_unpack_full)");
            }
            int next = decoder.left() == 0 ? -1 : decoder.position();
            values.add(0, LuaValue.valueOf(next));
        }
        return LuaValue.varargsOf(values.toArray(new LuaValue[0]));
    }
}
