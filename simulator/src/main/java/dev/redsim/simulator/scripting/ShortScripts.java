package dev.redsim.simulator.scripting;

import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decides from a compiled function's bytecode whether it provably ends soon: then it may run on the engine thread
 * itself, with no hand-off to the script thread (decision 0004). The common script, a few redis.call with KEYS and
 * ARGV, qualifies.
 *
 * <p>Proof by construction: no instruction jumps backwards (no loop of any kind), no function is created (no
 * recursion), fewer instructions than Redis's busy hook interval (Redis itself would never report such a script
 * busy), and every call provably goes to a library function whose cost is bounded by its input (redis.call costs
 * what the command costs, as in Redis). Since the globals and library tables are read-only, a name read from the
 * globals always is the function the sandbox put there. What a value may hold is tracked per register through
 * the code (one forward pass; jumps only go forward): a library table ("string") may only be indexed with a
 * constant name, and whatever may be an unbounded function (string.rep read off a string, a dynamic index) may
 * not be used at all. Data tables can hold only values that passed these checks, and no value a script can reach
 * has a metatable with Lua code (setmetatable is not among the allowed calls), so no metamethod runs either.
 *
 * <p>Anything this pass cannot prove runs on the script thread, as every script did before: it is slower, never
 * wrong.
 */
final class ShortScripts {
    /** Redis's busy hook runs every 100,000 instructions: a script of fewer can never be reported busy. */
    static final int MAX_INSTRUCTIONS = 100_000;

    /** Global functions whose cost is bounded by their arguments. */
    private static final Set<String> FUNCTIONS = Set.of("tonumber", "tostring", "type", "assert", "error",
            "unpack", "select", "rawequal", "rawget");
    /** Library tables, and the members that are bounded functions (calls) or plain values. */
    private static final Map<String, Set<String>> LIBRARY_FUNCTIONS = Map.of(
            "redis", Set.of("call", "pcall", "sha1hex", "status_reply", "error_reply", "log", "setresp",
                    "set_repl", "replicate_commands"),
            "string", Set.of("len", "sub", "upper", "lower", "byte", "char", "format", "reverse"),
            "table", Set.of("concat", "insert", "remove", "getn"),
            "math", Set.of("abs", "ceil", "floor", "fmod", "max", "min", "modf", "pow", "sqrt", "exp", "log",
                    "log10", "frexp", "ldexp", "random", "mod", "sin", "cos", "tan", "asin", "acos", "atan",
                    "atan2", "sinh", "cosh", "tanh", "deg", "rad"),
            "cjson", Set.of("encode", "decode"),
            "bit", Set.of("tobit", "tohex", "bnot", "band", "bor", "bxor", "lshift", "rshift", "arshift", "rol",
                    "ror", "bswap"));
    private static final Map<String, Set<String>> LIBRARY_VALUES = Map.of(
            "redis", Set.of("LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REPL_NONE", "REPL_AOF",
                    "REPL_SLAVE", "REPL_REPLICA", "REPL_ALL"),
            "math", Set.of("pi", "huge"));
    /** Read-only data tables every script sees. */
    private static final Set<String> DATA_GLOBALS = Set.of("KEYS", "ARGV");
    /** Methods s:name() of a string that are bounded; every other string method may not be touched. */
    private static final Set<String> STRING_METHODS = LIBRARY_FUNCTIONS.get("string");
    /** Names under which a string exposes unbounded functions (s.rep, s:gsub): reading them taints the value. */
    private static final Set<String> STRING_UNBOUNDED = Set.of("rep", "find", "match", "gmatch", "gsub", "gfind", "dump");

    private ShortScripts() {
    }

    /** Whether {@code function} (a script body or a library function) provably ends soon. */
    static boolean provablyShort(LuaValue function) {
        return function instanceof LuaClosure closure && provablyShort(closure.p);
    }

    /** Whether {@code p} (a script body or a library function) provably ends soon; see the class comment. */
    static boolean provablyShort(Prototype p) {
        if (p.p.length > 0 || p.code.length >= MAX_INSTRUCTIONS) {
            return false;
        }
        try {
            new Pass(p).run();
            return true;
        } catch (Unproven e) {
            return false;
        }
    }

    /** What a register may hold. */
    private sealed interface Kind {
    }

    /** Strings, numbers, booleans, nil, data tables, bounded functions: anything harmless. */
    private record Data() implements Kind {
    }

    /** Exactly a bounded function, safe to call. */
    private record Bounded() implements Kind {
    }

    /** A library table, named: only its constant members may be read. */
    private record Library(String name) implements Kind {
    }

    /** Possibly an unbounded function: may not be used at all. */
    private record Tainted() implements Kind {
    }

    private static final Kind DATA = new Data();
    private static final Kind BOUNDED = new Bounded();
    private static final Kind TAINTED = new Tainted();

    private static final class Unproven extends RuntimeException {
        Unproven() {
            super(null, null, false, false);
        }
    }

    private static final class Pass {
        private final Prototype p;
        private final int[] code;
        private final Map<Integer, Kind[]> pending = new HashMap<>();
        /** The code appended for concatenations (ConcatNumbers), interpreted where its JMP leads there. */
        private final java.util.BitSet appended = new java.util.BitSet();
        private Kind[] regs;

        Pass(Prototype p) {
            this.p = p;
            this.code = p.code;
        }

        void run() {
            regs = fresh();
            boolean reachable = true; // whether the previous instruction falls through to this one
            for (int pc = 0; pc < code.length; pc++) {
                if (appended.get(pc)) {
                    continue;
                }
                Kind[] incoming = pending.remove(pc);
                if (!reachable && incoming == null) {
                    continue; // dead code
                }
                if (!reachable) {
                    regs = incoming;
                } else if (incoming != null) {
                    regs = merge(regs, incoming);
                }
                reachable = step(pc, code[pc]);
            }
        }

        private Kind[] fresh() {
            Kind[] r = new Kind[Math.max(p.maxstacksize, 1) + 1];
            Arrays.fill(r, DATA); // parameters (FCALL's keys and args) and varargs are data
            return r;
        }

        /** Interprets one instruction on the register kinds; returns whether the next instruction follows. */
        private boolean step(int pc, int i) {
            int op = Lua.GET_OPCODE(i);
            int a = Lua.GETARG_A(i);
            int b = Lua.GETARG_B(i);
            int c = Lua.GETARG_C(i);
            switch (op) {
                case Lua.OP_MOVE -> set(a, kind(b));
                case Lua.OP_LOADK -> set(a, ConcatNumbers.isConversion(p.k[Lua.GETARG_Bx(i)]) ? BOUNDED : DATA);
                case Lua.OP_LOADKX, Lua.OP_NEWTABLE -> set(a, DATA);
                case Lua.OP_LOADBOOL -> {
                    set(a, DATA);
                    if (c != 0) {
                        jumpTo(pc + 2);
                        return false;
                    }
                }
                case Lua.OP_LOADNIL -> {
                    for (int r = a; r <= a + b; r++) {
                        set(r, DATA);
                    }
                }
                case Lua.OP_GETTABUP -> set(a, global(b, c));
                case Lua.OP_GETTABLE -> set(a, member(kind(b), c));
                case Lua.OP_SELF -> {
                    use(b);
                    String name = constantName(c);
                    if (name == null || !STRING_METHODS.contains(name)) {
                        throw new Unproven(); // a method of anything but a string's bounded ones
                    }
                    set(a + 1, kind(b));
                    set(a, BOUNDED);
                }
                case Lua.OP_SETTABUP -> {
                    useRk(b);
                    useRk(c);
                }
                case Lua.OP_SETTABLE -> {
                    use(a);
                    useRk(b);
                    useRk(c);
                }
                case Lua.OP_ADD, Lua.OP_SUB, Lua.OP_MUL, Lua.OP_DIV, Lua.OP_MOD, Lua.OP_POW -> {
                    useRk(b);
                    useRk(c);
                    set(a, DATA);
                }
                case Lua.OP_UNM, Lua.OP_NOT, Lua.OP_LEN -> {
                    use(b);
                    set(a, DATA);
                }
                case Lua.OP_CONCAT -> {
                    for (int r = b; r <= c; r++) {
                        use(r);
                    }
                    set(a, DATA);
                }
                case Lua.OP_JMP -> {
                    int target = pc + 1 + Lua.GETARG_sBx(i);
                    if (target <= pc) {
                        throw new Unproven(); // a loop
                    }
                    int end = ConcatNumbers.appendedEnd(p, pc);
                    if (end >= 0) { // a concatenation, moved out of line: it runs here and comes back
                        for (int q = target; q < end; q++) {
                            step(q, code[q]);
                        }
                        appended.set(target, end + 1);
                        return true;
                    }
                    jumpTo(target);
                    return false;
                }
                case Lua.OP_EQ, Lua.OP_LT, Lua.OP_LE -> {
                    useRk(b);
                    useRk(c);
                    jumpTo(pc + 2);
                }
                case Lua.OP_TEST -> {
                    use(a);
                    jumpTo(pc + 2);
                }
                case Lua.OP_TESTSET -> {
                    use(b);
                    jumpTo(pc + 2); // R(A) unchanged on that path
                    set(a, kind(b));
                }
                case Lua.OP_CALL -> {
                    call(a, b);
                    if (c == 0) {
                        for (int r = a; r < regs.length; r++) {
                            set(r, DATA); // as many results as the call returns
                        }
                    } else {
                        for (int r = a; r <= a + c - 2; r++) {
                            set(r, DATA);
                        }
                    }
                }
                case Lua.OP_TAILCALL -> {
                    call(a, b);
                    return false;
                }
                case Lua.OP_RETURN -> {
                    useRange(a, b);
                    return false;
                }
                case Lua.OP_SETLIST -> useRange(a + 1, b == 0 ? 0 : b + 1);
                case Lua.OP_VARARG -> {
                    int last = b == 0 ? regs.length - 1 : a + b - 2;
                    for (int r = a; r <= last; r++) {
                        set(r, DATA);
                    }
                }
                case Lua.OP_EXTRAARG -> {
                }
                // loops, closures and upvalues other than the globals' table
                default -> throw new Unproven();
            }
            return true;
        }

        /** R(A)(R(A+1) .. R(A+B-1)): the callee must be a bounded function, and no argument tainted. */
        private void call(int a, int b) {
            if (kind(a) != BOUNDED) {
                throw new Unproven();
            }
            useRange(a + 1, b);
        }

        /** Registers from {@code first} on: B-1 of them, or up to the top (B = 0) after a call or vararg. */
        private void useRange(int first, int b) {
            int last = b == 0 ? regs.length - 1 : first + b - 2;
            for (int r = first; r <= last && r < regs.length; r++) {
                use(r);
            }
        }

        /** globals[K]: a bounded function, a library table, read-only data, or unproven. */
        private Kind global(int upvalue, int key) {
            if (!isEnv(upvalue)) {
                throw new Unproven();
            }
            String name = constantName(key);
            if (name == null) {
                throw new Unproven();
            }
            if (FUNCTIONS.contains(name)) {
                return BOUNDED;
            }
            if (LIBRARY_FUNCTIONS.containsKey(name)) {
                return new Library(name);
            }
            if (DATA_GLOBALS.contains(name)) {
                return DATA;
            }
            throw new Unproven();
        }

        private boolean isEnv(int upvalue) {
            return GlobalsName.isGlobals(p, upvalue);
        }

        /** R(B)[RK(C)] for a value of kind {@code table}. */
        private Kind member(Kind table, int key) {
            if (key < Lua.BITRK) {
                use(key);
            }
            String name = constantName(key);
            if (table instanceof Library library) {
                if (name == null) {
                    throw new Unproven();
                }
                if (LIBRARY_FUNCTIONS.get(library.name()).contains(name)) {
                    return BOUNDED;
                }
                if (LIBRARY_VALUES.getOrDefault(library.name(), Set.of()).contains(name)) {
                    return DATA;
                }
                throw new Unproven();
            }
            if (table == TAINTED) {
                throw new Unproven();
            }
            if (key >= Lua.BITRK && name == null) {
                return DATA; // a number or boolean constant: array access
            }
            // a string's members are the string library's: a dynamic or unbounded name may give an unbounded one
            return name == null || STRING_UNBOUNDED.contains(name) ? TAINTED : DATA;
        }

        /** The constant string RK(C) names, or null when it is a register or no string. */
        private String constantName(int rk) {
            if (rk < Lua.BITRK) {
                return null;
            }
            LuaValue k = p.k[rk - Lua.BITRK];
            return k.type() == LuaValue.TSTRING ? k.tojstring() : null;
        }

        private void useRk(int rk) {
            if (rk < Lua.BITRK) {
                use(rk);
            }
        }

        /** A value flows somewhere (an argument, a table, an operand): it may not be a library or tainted. */
        private void use(int r) {
            Kind k = kind(r);
            if (k == TAINTED || k instanceof Library) {
                throw new Unproven();
            }
        }

        private Kind kind(int r) {
            if (r >= regs.length) {
                throw new Unproven();
            }
            return regs[r];
        }

        private void set(int r, Kind k) {
            if (r >= regs.length) {
                throw new Unproven();
            }
            regs[r] = k;
        }

        private void jumpTo(int target) {
            if (target > code.length) {
                throw new Unproven();
            }
            pending.merge(target, regs.clone(), Pass::merge);
        }

        private static Kind[] merge(Kind[] x, Kind[] y) {
            if (x == null) {
                return y.clone();
            }
            Kind[] r = new Kind[x.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = x[i].equals(y[i]) ? x[i] : joined(x[i], y[i]);
            }
            return r;
        }

        /** Two different kinds a register may hold, depending on the path taken. */
        private static Kind joined(Kind x, Kind y) {
            boolean harmless = (x == DATA || x == BOUNDED) && (y == DATA || y == BOUNDED);
            return harmless ? DATA : TAINTED;
        }
    }
}
