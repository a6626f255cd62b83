package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/** A Lua function written in Java as a lambda over its arguments. */
final class JavaFunction {
    private JavaFunction() {
    }

    interface Body {
        Varargs run(Varargs args);
    }

    static LuaValue of(Body body) {
        return new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return body.run(args);
            }
        };
    }
}
