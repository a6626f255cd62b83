package dev.redsim.simulator.scripting;

import org.luaj.vm2.Globals;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;
import org.luaj.vm2.lib.OneArgFunction;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The instruction hook of a Lua state (Redis's count hook): every {@link #CHECK_EVERY} instructions it lets the
 * running script be paused or killed ({@link ScriptExecution#checkpoint}), and it counts call depth to raise
 * Lua 5.1's "stack overflow" at Lua's limit rather than letting the JVM stack overflow.
 *
 * <p>luaj calls these methods only when a DebugLib is installed in {@code globals.debuglib}. Installing it (without
 * the script-visible debug table) also makes luaj add a traceback to error messages unless the running Lua thread
 * has an error function; an identity error function keeps the messages exactly as they were without the hook.
 */
final class ScriptHook extends DebugLib {
    private static final int CHECK_EVERY = 1000;
    /**
     * The memory bound is looked at every this many checkpoints (at the first, and at every one once the script failed
     * for memory).
     * Even the cheap read of the thread's allocation counter is a call into the JVM, and the queue scripts reach a
     * checkpoint several times per job; the instructions between two looks allocate little by themselves (a
     * concatenation is accounted on its own, see {@link #concatenating}; string.rep reserves before it builds).
     */
    private static final int MEMORY_CHECK_EVERY = 8;
    /** Lua 5.1's LUAI_MAXCALLS: deeper calls fail with "stack overflow". */
    private static final int MAX_DEPTH = 20_000;
    /**
     * Concatenations may build this many bytes between two reads of the heap. Reading the heap costs more than a
     * small concatenation (a fifth of a queue script's hook time went there); a doubling loop still meets a read
     * at every step once its string passes half of this.
     */
    private static final long CONCAT_BYTES_PER_CHECK = 256 * 1024;

    /**
     * How deep a script may call while it runs on the engine thread, whose stack is the JVM's default: deeper, it
     * moves to the script thread (16 MB, room for Lua's 20000) before the engine thread's stack could run out.
     */
    private static final int ENGINE_THREAD_MAX_DEPTH = 64;

    private final ScriptRunner runner;
    private final Globals globals;
    private int countdown = CHECK_EVERY;
    private int memoryCountdown = MEMORY_CHECK_EVERY; // checkpoints until the memory bound is looked at
    // While a script runs on the engine thread with a recording (decision 0030): System.nanoTime() past which it
    // moves to the script thread; 0 when it runs where it ends
    private long speculationDeadline;
    private boolean aborting; // the move was raised: raise it again until the script's frames are gone
    private long concatBytes; // what concatenations built since the last read of the heap
    private int depth;
    private Thread mainThread; // the thread the running script started on; others run its coroutines
    private long loadDeadline; // System.nanoTime() past which a library's load fails; 0 when no load runs
    private int cCalls; // Lua 5.1's nCcalls: nested protected calls and resumes; the script itself is one
    // The threads running this script's coroutines. A released coroutine unwinds on its own thread after the
    // script ended and luaj calls the hook on the way out: those calls must not touch the next script's frames.
    private final java.util.Set<Thread> coroutineThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    // The call stack as the hook sees it, for naming functions in argument errors (Lua's getfuncname):
    // per depth the running closure (null for a C function such as pcall), its registers and current pc.
    // Entries above depth are left as they were: the one just above is the frame a tail call came from.
    private LuaClosure[] closures = new LuaClosure[64];
    private LuaValue[][] stacks = new LuaValue[64][];
    private int[] pcs = new int[64];
    /** A coroutine ran in this script: the frames no longer tell which function runs, so no tail call check. */
    private boolean coroutineFrames;
    /**
     * The code of the Lua function on top of the frames, for the opcode checks of every instruction; null for a C
     * function, and from the first coroutine on (see {@link #coroutineFrames}). Kept apart from {@link #closures}
     * because luaj calls the hook before every instruction: the fewer loads there, the faster every script runs.
     */
    private int[] topCode;
    private int tailCaller; // the depth of the frame that just ended in "return f(...)", while f runs; else 0

    private ScriptHook(ScriptRunner runner, Globals globals) {
        this.runner = runner;
        this.globals = globals;
    }

    static void install(Globals globals, ScriptRunner runner) {
        globals.debuglib = new ScriptHook(runner, globals);
        ScriptHook hook = (ScriptHook) globals.debuglib;
        globals.running.errorfunc = new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue message) {
                // called by the innermost Lua frame the error passes, while the hook still shows that frame
                return hook.withNames(message);
            }
        };
    }

    /** The hook of a Lua state, which every state scripts run in has. */
    static ScriptHook of(Globals globals) {
        return (ScriptHook) globals.debuglib;
    }

    /**
     * A script (or a library's load) starts on the calling thread: call depth from zero, no coroutine yet, and
     * this state bound to the thread for the library functions that need it ({@link RunningHook}).
     */
    void begin() {
        depth = 0;
        tailCaller = 0;
        coroutineFrames = false;
        topCode = null;
        mainThread = Thread.currentThread();
        loadDeadline = 0;
        countdown = CHECK_EVERY;
        memoryCountdown = MEMORY_CHECK_EVERY;
        concatBytes = 0;
        cCalls = 1;
        speculationDeadline = 0;
        aborting = false;
        runner.memory().start();
        RunningHook.bind(this);
    }

    /**
     * The script that just began runs on the engine thread until {@code deadlineNanos} (System.nanoTime()), then
     * moves to the script thread ({@link SpeculationAbort}); so it does before it nests deeper than the engine
     * thread's stack allows or starts a coroutine.
     */
    void speculateUntil(long deadlineNanos) {
        speculationDeadline = deadlineNanos == 0 ? 1 : deadlineNanos;
    }

    /** Whether the running script runs on the engine thread, to be moved when it runs long. */
    boolean speculating() {
        return speculationDeadline != 0;
    }

    /** Unwinds the script to move it to the script thread; from now on every instruction raises it again. */
    private SpeculationAbort moveToScriptThread() {
        aborting = true;
        countdown = 1;
        return SpeculationAbort.INSTANCE;
    }

    /** A coroutine is about to be made: luaj runs it on a thread of its own, which cannot be unwound from here. */
    void beforeCoroutine() {
        if (speculationDeadline != 0) {
            throw moveToScriptThread();
        }
        runner.memory().beforeCoroutine();
    }

    /** A library's code starts to load (FUNCTION LOAD): it fails once it has run {@code limitNanos}, as in Redis. */
    void beginLoad(long limitNanos) {
        begin();
        loadDeadline = System.nanoTime() + limitNanos;
    }

    ScriptMemory memory() {
        return runner.memory();
    }

    /** The script ended (however): the thread no longer runs this state's code. */
    void end() {
        loadDeadline = 0;
        speculationDeadline = 0;
        releaseCoroutines();
        RunningHook.unbind();
    }

    /** Lua 5.1's LUAI_MAXCCALLS. */
    private static final int MAX_C_CALLS = 200;
    /** luaj's coroutines are threads: past this many in one script, a new one fails for memory. */
    private static final int MAX_COROUTINE_THREADS = 10_000;

    /** A protected call starts (luaD_call): false when it would be 200 C levels deep. */
    boolean enterC() {
        if (cCalls + 1 >= MAX_C_CALLS) {
            return false;
        }
        cCalls++;
        return true;
    }

    /** A resume starts (lua_resume): false when the resumer already is 200 C levels deep. */
    boolean enterResume() {
        if (cCalls >= MAX_C_CALLS) {
            return false;
        }
        cCalls++;
        return true;
    }

    void leaveC() {
        cCalls--;
    }

    /** luaj started a coroutine of the running script on {@code thread}. */
    void coroutineStarted(Thread thread) {
        if (coroutineThreads.size() >= MAX_COROUTINE_THREADS) {
            throw ScriptError.unpositioned(ScriptMemory.NOT_ENOUGH_MEMORY);
        }
        coroutineThreads.add(thread);
    }

    /** Whether the calling thread runs the running script: its own thread or one of its coroutines. */
    private boolean runsTheScript() {
        Thread thread = Thread.currentThread();
        return thread == mainThread || coroutineThreads.contains(thread);
    }

    /**
     * The script ended: its suspended coroutines can never run again (nothing a script creates outlives it), so
     * their threads end now; luaj's own clean-up waits for the garbage collector and a 5 s poll. A coroutine waits
     * for its resume in Object.wait, which the interrupt turns into luaj's end of an orphaned coroutine.
     */
    private void releaseCoroutines() {
        java.util.List<Thread> released = java.util.List.copyOf(coroutineThreads);
        coroutineThreads.clear(); // first: from now on their hook calls are ignored
        for (Thread thread : released) {
            if (thread != Thread.currentThread()) {
                thread.interrupt();
            }
        }
    }

    /** This state's string library, where s:method() looks methods up. */
    LuaTable stringLibrary() {
        return (LuaTable) globals.rawget("string");
    }

    @Override
    public void onCall(LuaFunction f) {
        if (!runsTheScript()) {
            return;
        }
        if (speculationDeadline != 0 && depth + 1 > ENGINE_THREAD_MAX_DEPTH) {
            throw moveToScriptThread(); // luaj calls onReturn only for calls that started
        }
        enter(null, null);
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        if (Thread.currentThread() != mainThread) {
            if (!coroutineThreads.contains(Thread.currentThread())) {
                return; // a released coroutine of an ended script
            }
            coroutineFrames = true; // luaj runs coroutines on threads of their own, interleaving their frames
            topCode = null;
        }
        if (depth + 1 > MAX_DEPTH) {
            throw ScriptError.positioned("stack overflow"); // luaj calls onReturn only for calls that started
        }
        if (speculationDeadline != 0 && depth + 1 > ENGINE_THREAD_MAX_DEPTH) {
            throw moveToScriptThread();
        }
        enter(c, stack);
    }

    private void enter(LuaClosure closure, LuaValue[] stack) {
        if (++depth >= closures.length) {
            int size = closures.length * 2;
            closures = Arrays.copyOf(closures, size);
            stacks = Arrays.copyOf(stacks, size);
            pcs = Arrays.copyOf(pcs, size);
        }
        closures[depth] = closure;
        stacks[depth] = stack;
        tailCaller = 0;
        topCode = closure == null || coroutineFrames ? null : closure.p.code;
    }

    @Override
    public void onReturn() {
        if (depth > 0 && runsTheScript()) {
            LuaClosure closure = closures[depth];
            boolean tailCall = closure != null && pcs[depth] < closure.p.code.length
                    && Lua.GET_OPCODE(closure.p.code[pcs[depth]]) == Lua.OP_TAILCALL;
            tailCaller = tailCall ? depth : 0;
            depth--;
            LuaClosure caller = closures[depth];
            topCode = caller == null || coroutineFrames ? null : caller.p.code;
        }
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        if (Thread.currentThread() != mainThread && !runsTheScript()) {
            return; // a released coroutine of an ended script
        }
        pcs[depth] = pc;
        tailCaller = 0; // this frame runs again: no tail call of a returned frame is in progress
        int[] code = topCode;
        if (code != null) {
            int instruction = code[pc];
            int op = Lua.GET_OPCODE(instruction);
            if (op == Lua.OP_TAILCALL) {
                failUncallableTailCall(instruction);
            } else if (op == Lua.OP_CONCAT) {
                concatenating(instruction, stacks[depth]);
            }
        }
        if (--countdown > 0) {
            return;
        }
        countdown = CHECK_EVERY;
        checkpoint();
    }

    /**
     * Before a concatenation: s = s .. s doubles, and a thousand of them would outrun any heap between two
     * checkpoints, so the heap is read once the concatenations since the last read could have built
     * {@link #CONCAT_BYTES_PER_CHECK} (each builds at most the sum of its operands), and at every one once the
     * script failed for memory.
     */
    private void concatenating(int instruction, LuaValue[] registers) {
        ScriptMemory memory = runner.memory();
        int first = Lua.GETARG_B(instruction);
        int last = Lua.GETARG_C(instruction);
        for (int r = first; r <= last && registers != null && r < registers.length; r++) {
            LuaValue operand = registers[r];
            // a number becomes at most a few dozen characters; anything else fails the concatenation
            concatBytes += operand instanceof LuaString s ? s.m_length : 32;
        }
        if (registers == null || concatBytes >= CONCAT_BYTES_PER_CHECK || memory.exhausted()) {
            concatBytes = 0;
            memory.check();
        }
    }

    /** Every few instructions: the load time limit, the memory bound, then a pause or kill of a busy script. */
    private void checkpoint() {
        if (speculationDeadline != 0 && (aborting || System.nanoTime() - speculationDeadline > 0)) {
            throw moveToScriptThread(); // first: no memory error a pcall may catch must keep it from moving
        }
        if (loadDeadline != 0 && System.nanoTime() - loadDeadline > 0) {
            countdown = 1; // as Redis's load hook, from now on at every instruction: no pcall can go on
            throw ScriptError.redis(LOAD_TIMEOUT);
        }
        ScriptMemory memory = runner.memory();
        if (memory.exhausted()) {
            countdown = 1;
            memory.check();
        } else if (!memory.baselineKnown() || --memoryCountdown <= 0) {
            memoryCountdown = MEMORY_CHECK_EVERY;
            memory.check();
        }
        ScriptExecution execution = runner.current();
        if (execution != null) {
            if (execution.killed()) {
                countdown = 1; // once killed, no pcall can go on
            }
            execution.checkpoint();
        }
    }

    static final String LOAD_TIMEOUT = "ERR FUNCTION LOAD timeout";

    /**
     * luaj makes "return f(...)" after its function has returned, so calling a non-function there would fail
     * where no Lua frame catches it (inside pcall, say) and no line or name is known. Lua fails at the return
     * itself: raise the same error here, still inside the function, where the error function names it.
     */
    private void failUncallableTailCall(int instruction) {
        LuaValue callee = stacks[depth][Lua.GETARG_A(instruction)];
        if (callee != null && !callee.isfunction() && callee.metatag(LuaValue.CALL).isnil()) {
            throw new LuaError("attempt to call " + callee.typename());
        }
    }

    /**
     * How the running code called {@code function} (a library function now failing): directly from the Lua
     * frame on top, by a tail call of the frame that just returned, or else from C code.
     */
    CallSite callSite(LuaValue function) {
        if (tailCaller == depth + 1) {
            CallSite site = callAt(tailCaller, function, true);
            if (site != null) {
                // Lua 5.1 runs a C function called by "return f(...)" inside the caller's frame: the error
                // names the line of that return, which luaj, having left the frame, does not know
                Prototype p = closures[tailCaller].p;
                int pc = pcs[tailCaller];
                String line = p.lineinfo != null && pc < p.lineinfo.length ? String.valueOf(p.lineinfo[pc]) : "?";
                return site.at(ScriptErrors.position(p.source.tojstring()) + ":" + line);
            }
        }
        if (depth == 0 || closures[depth] == null) {
            return CallSite.FROM_C;
        }
        CallSite site = callAt(depth, function, false);
        if (site != null) {
            return site;
        }
        // not this frame's call: either a C function this frame called (gsub, sort) called it, or the VM did,
        // for a metamethod of the current instruction; Lua 5.1 then has no name but still the script line
        int op = Lua.GET_OPCODE(closures[depth].p.code[pcs[depth]]);
        boolean calls = op == Lua.OP_CALL || op == Lua.OP_TAILCALL
                || op == Lua.OP_TFORCALL;
        return calls ? CallSite.FROM_C : new CallSite(null, false, true, null);
    }

    private CallSite callAt(int frame, LuaValue function, boolean tailCall) {
        Prototype p = closures[frame].p;
        int pc = pcs[frame];
        if (pc < 0 || pc >= p.code.length) {
            return null;
        }
        int i = p.code[pc];
        int op = Lua.GET_OPCODE(i);
        boolean calls = tailCall ? op == Lua.OP_TAILCALL
                : op == Lua.OP_CALL || op == Lua.OP_TAILCALL;
        int a = Lua.GETARG_A(i);
        LuaValue[] stack = stacks[frame];
        if (!calls || stack == null || a >= stack.length || stack[a] != function) {
            return null;
        }
        CallSite site = CallNames.of(p, pc, a);
        return site == null ? new CallSite(null, false, true, null) : site;
    }

    /**
     * luaj's VM error "@user_script:1 attempt to call nil" in Lua 5.1's words, naming the variable; an error
     * from a function that "return f(...)" called is placed at that return, where Lua 5.1 raises it.
     */
    LuaValue withNames(LuaValue message) {
        try {
            String text = message.tojstring();
            Matcher m = POSITIONED.matcher(text);
            if (!m.matches()) {
                return message;
            }
            String position = m.group(1);
            String named = null;
            if (depth > 0 && closures[depth] != null) {
                int frame = depth;
                if (tailCaller == depth + 1 && closures[tailCaller] != null && Lua.GET_OPCODE(
                        closures[tailCaller].p.code[pcs[tailCaller]]) == Lua.OP_TAILCALL) {
                    frame = tailCaller;
                    Prototype p = closures[frame].p;
                    position = p.source.tojstring() + ":" + p.lineinfo[pcs[frame]];
                }
                named = VmErrorNames.describe(closures[frame], stacks[frame], pcs[frame], m.group(2));
            }
            // Lua 5.1's form "user_script:1: message", which pcall hands to the script as is
            String body = named != null ? named : LuaErrorTexts.lua51(m.group(2));
            return LuaValue.valueOf(ScriptErrors.position(position) + ": " + body);
        } catch (RuntimeException e) {
            return message; // frames that do not describe this error: keep luaj's text
        }
    }

    /** "user_script:3" for the code {@code level} frames up from the running Lua function (error's level), or null. */
    String positionAt(int level) {
        int frame = depth - (level - 1);
        if (frame < 1 || frame >= closures.length || closures[frame] == null) {
            return null;
        }
        Prototype p = closures[frame].p;
        int pc = pcs[frame];
        return p.lineinfo != null && pc < p.lineinfo.length
                ? ScriptErrors.position(p.source.tojstring()) + ":" + p.lineinfo[pc] : null;
    }

    /**
     * An error no Lua frame saw: raised by a call that "return f(...)" made after its frame had returned to
     * Redis. Lua 5.1 raises it at that return, naming the variable; luaj has neither.
     */
    static LuaError withNames(Globals globals, LuaError error) {
        ScriptHook hook = RunningHook.orElse(globals.debuglib instanceof ScriptHook own ? own : null);
        if (hook == null || error.getClass() != LuaError.class) {
            return error;
        }
        try {
            int frame = hook.tailCaller;
            if (frame == 0 || frame != hook.depth + 1 || hook.closures[frame] == null) {
                return error;
            }
            Prototype p = hook.closures[frame].p;
            int pc = hook.pcs[frame];
            if (Lua.GET_OPCODE(p.code[pc]) != Lua.OP_TAILCALL) {
                return error;
            }
            String named = VmErrorNames.describe(hook.closures[frame], hook.stacks[frame], pc, error.getMessage());
            return named == null ? error
                    : ScriptError.at(ScriptErrors.position(p.source.tojstring()) + ":" + p.lineinfo[pc], named);
        } catch (RuntimeException e) {
            return error;
        }
    }

    private static final Pattern POSITIONED = Pattern.compile("^@(\\S+:\\d+) (.*)$",
            Pattern.DOTALL);

    @Override
    public String traceback(int level) {
        return "";
    }
}
