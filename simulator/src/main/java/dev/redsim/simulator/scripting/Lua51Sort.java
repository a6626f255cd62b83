package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * table.sort with Lua 5.1's quicksort: the same comparisons in the same order, so an inconsistent comparator
 * leaves the same order as in Redis, and the same "invalid order function for sorting" failures. Comparing
 * values without a comparator fails as Lua 5.1's VM does inside a C function: without a script position.
 */
final class Lua51Sort extends VarArgFunction {
    @Override
    public Varargs invoke(Varargs args) {
        LuaTable t = args.checktable(1);
        LuaValue comparator = args.arg(2);
        if (!comparator.isnil() && !comparator.isfunction()) {
            throw new LuaError("bad argument #2: function expected, got " + comparator.typename());
        }
        new Run(t, comparator.isnil() ? null : comparator).sort(1, t.length());
        return LuaValue.NONE;
    }

    private static final class Run {
        private final LuaTable t;
        private final LuaValue comparator;

        Run(LuaTable t, LuaValue comparator) {
            this.t = t;
            this.comparator = comparator;
        }

        private boolean less(LuaValue a, LuaValue b) {
            if (comparator != null) {
                return comparator.call(a, b).toboolean();
            }
            try {
                return a.lt_b(b);
            } catch (LuaError e) {
                if (e instanceof ScriptError) {
                    throw e;
                }
                throw ScriptError.unpositioned(LuaErrorTexts.lua51(e.getMessage()));
            }
        }

        private void swap(int i, int j) {
            LuaValue a = t.rawget(i);
            t.rawset(i, t.rawget(j));
            t.rawset(j, a);
        }

        /** Sorts t[lo..hi]: median of three as pivot, partition, recurse into the smaller half, loop on the other. */
        void sort(int lo, int hi) {
            while (lo < hi) {
                if (less(t.rawget(hi), t.rawget(lo))) {
                    swap(lo, hi);
                }
                if (hi - lo == 1) {
                    return;
                }
                int mid = (lo + hi) / 2;
                if (less(t.rawget(mid), t.rawget(lo))) {
                    swap(mid, lo);
                } else if (less(t.rawget(hi), t.rawget(mid))) {
                    swap(mid, hi);
                }
                if (hi - lo == 2) {
                    return;
                }
                LuaValue pivot = t.rawget(mid);
                swap(mid, hi - 1); // the pivot waits at hi - 1 while lo + 1 .. hi - 2 is partitioned
                int i = lo;
                int j = hi - 1;
                while (true) {
                    while (less(t.rawget(++i), pivot)) {
                        if (i > hi) {
                            throw ScriptError.positioned("invalid order function for sorting");
                        }
                    }
                    while (less(pivot, t.rawget(--j))) {
                        if (j < lo) {
                            throw ScriptError.positioned("invalid order function for sorting");
                        }
                    }
                    if (j < i) {
                        break;
                    }
                    swap(i, j);
                }
                swap(hi - 1, i);
                if (i - lo < hi - i) {
                    sort(lo, i - 1);
                    lo = i + 1;
                } else {
                    sort(i + 1, hi);
                    hi = i - 1;
                }
            }
        }
    }
}
