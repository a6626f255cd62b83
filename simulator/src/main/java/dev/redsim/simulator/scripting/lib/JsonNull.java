package dev.redsim.simulator.scripting.lib;

import org.luaj.vm2.LuaUserdata;
import org.luaj.vm2.LuaValue;

/**
 * cjson.null: Redis's cjson uses a NULL light userdata, the same value in every cjson instance, that
 * prints as "userdata: (nil)". One immutable instance stands for it.
 */
public final class JsonNull extends LuaUserdata {
    public static final JsonNull INSTANCE = new JsonNull();

    private JsonNull() {
        super(new Object());
    }

    public static boolean is(LuaValue value) {
        return value == INSTANCE;
    }

    @Override
    public String tojstring() {
        return "userdata: (nil)";
    }
}
