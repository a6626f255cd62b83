package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/** The global {@code struct} of Redis scripts: pack, unpack and size of C-struct-like binary strings. */
public final class StructLib {
    private StructLib() {
    }

    public static LuaTable create() {
        LuaTable struct = new LuaTable();
        NamedFunction.register(struct, "pack", StructPacker::pack);
        NamedFunction.register(struct, "unpack", StructUnpacker::unpack);
        NamedFunction.register(struct, "size", StructLib::size);
        return struct;
    }

    private static boolean isAsciiAlphanumeric(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static Varargs size(Varargs args) {
        StructFormat format = new StructFormat(LuaArgs.bytes(LuaArgs.checkString("size", args, 1)), "size");
        long pos = 0;
        while (format.hasNext()) {
            int option = format.nextOption();
            long size = format.size(option);
            pos += format.padding(pos, option, size);
            if (option == 's') {
                throw LuaArgs.argError("size", 1, "option 's' has no fixed size");
            }
            if (option == 'c' && size == 0) {
                throw LuaArgs.argError("size", 1, "option 'c0' has no fixed size");
            }
            if (!isAsciiAlphanumeric(option)) {
                format.control(option);
            }
            pos += size;
        }
        return LuaValue.valueOf((double) pos);
    }
}
