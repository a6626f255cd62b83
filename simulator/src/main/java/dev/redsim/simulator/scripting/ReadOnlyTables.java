package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * Redis 7.0 marks the globals and every library table read-only (its Lua has a read-only flag on tables):
 * any write fails with "Attempt to modify a readonly table", positioned at the script line when Lua code
 * assigns (t.k = v), bare when a C function writes (rawset, setmetatable, table.insert). luaj has no such
 * flag, so these tables refuse writes in their own methods once sealed.
 */
final class ReadOnlyTables {
    static final String MESSAGE = "Attempt to modify a readonly table";

    private ReadOnlyTables() {
    }

    /** A sealed table of one entry (a metatable such as {__index = string}). */
    static ReadOnlyTable of(LuaValue key, LuaValue value) {
        LuaTable source = new LuaTable();
        source.rawset(key, value);
        return new ReadOnlyTable(source);
    }

    /** A write by Lua code (t.k = v) names the script line; one by a C function (rawset...) does not. */
    private static void refuseWhenSealed(boolean sealed, boolean byLuaCode) {
        if (sealed) {
            throw byLuaCode ? ScriptError.positioned(MESSAGE) : ScriptError.unpositioned(MESSAGE);
        }
    }

    /** The globals of a script state: filled while the state is built, then sealed. */
    static final class SealedGlobals extends Globals {
        private boolean sealed;

        void seal() {
            sealed = true;
        }

        /** Sets KEYS and ARGV before each run, as Redis does with the read-only flag lifted. */
        void setScriptGlobal(String name, LuaValue value) {
            super.rawset(LuaValue.valueOf(name), value);
        }

        @Override
        public void set(LuaValue key, LuaValue value) {
            refuseWhenSealed(sealed, true);
            super.set(key, value);
        }

        @Override
        public void set(int key, LuaValue value) {
            refuseWhenSealed(sealed, true);
            super.set(key, value);
        }

        @Override
        public void rawset(LuaValue key, LuaValue value) {
            refuseWhenSealed(sealed, false);
            super.rawset(key, value);
        }

        @Override
        public void rawset(int key, LuaValue value) {
            refuseWhenSealed(sealed, false);
            super.rawset(key, value);
        }

        @Override
        public LuaValue setmetatable(LuaValue metatable) {
            refuseWhenSealed(sealed, false);
            return super.setmetatable(metatable);
        }
    }

    /** A library table (string, math, table, cjson...): a sealed copy of the table luaj's library built. */
    static final class ReadOnlyTable extends LuaTable {
        private final boolean sealed;

        ReadOnlyTable(LuaTable source) {
            this(source, null);
        }

        /** A sealed copy of {@code source} with a (sealed) metatable of its own. */
        ReadOnlyTable(LuaTable source, LuaTable metatable) {
            for (Varargs e = source.next(LuaValue.NIL); !e.arg1().isnil(); e = source.next(e.arg1())) {
                super.rawset(e.arg1(), e.arg(2));
            }
            if (metatable != null) {
                super.setmetatable(metatable);
            }
            sealed = true;
        }

        /** For the simulator's own code only (a library load switches what its globals lead to). */
        void replace(LuaValue key, LuaValue value) {
            super.rawset(key, value);
        }

        @Override
        public void set(LuaValue key, LuaValue value) {
            throw ScriptError.positioned(MESSAGE);
        }

        @Override
        public void set(int key, LuaValue value) {
            throw ScriptError.positioned(MESSAGE);
        }

        @Override
        public void rawset(LuaValue key, LuaValue value) {
            refuseWhenSealed(sealed, false);
            super.rawset(key, value);
        }

        @Override
        public void rawset(int key, LuaValue value) {
            refuseWhenSealed(sealed, false);
            super.rawset(key, value);
        }

        @Override
        public LuaValue setmetatable(LuaValue metatable) {
            throw ScriptError.unpositioned(MESSAGE);
        }
    }
}
