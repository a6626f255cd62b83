package dev.redsim.simulator.scripting;

/**
 * The memory bound of scripts. Redis's Lua fails with "not enough memory" when its allocator does; a JVM that runs
 * out of heap fails every thread at once (the engine's loop among them), so scripts get a bound of their own,
 * well below the heap: the heap a script has added since it started may not pass {@link #limitBytes}.
 *
 * <p>Cheap by design, since it runs inside the script's instruction hook: the used heap is read every few
 * instructions and before every concatenation (a doubling loop would otherwise outrun the checks); only when the
 * growth looks too big does a full collection tell live data from garbage, so a script that churns garbage is not
 * failed for it. Functions that build one big value at once (string.rep) ask {@link #reserve} first. Once a script
 * has failed for memory it keeps failing at every check, so pcall cannot hold on to it.
 */
public final class ScriptMemory {
    /** Scripts may take a quarter of the heap: the rest is for the data, the clients and their buffers. */
    private static final long DEFAULT_LIMIT = Runtime.getRuntime().maxMemory() / 4;

    /** At most this much allocation by the checking thread between two reads of the heap (see {@link #check}). */
    private static final long READ_AFTER_BYTES = 1 << 20;

    private long limitBytes = DEFAULT_LIMIT;
    private long baseline;
    private boolean baselineKnown;
    private long trigger;
    private volatile boolean exhausted;
    private Thread readBy; // the thread that read the heap (or started the script) last, and its allocation counter then
    private long allocatedAtRead;
    private Thread startedBy; // the thread the script started on, and its allocation counter then
    private long allocatedAtStart;

    /** Sets the bound (RedisSimulator.Builder.scriptMemoryLimit). */
    public void limit(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("script memory limit must be positive: " + bytes);
        }
        limitBytes = bytes;
    }

    long limitBytes() {
        return limitBytes;
    }

    /**
     * A script starts: growth counts from the heap in use now. Reading the heap takes the JVM's heap lock, and most
     * scripts end before their first checkpoint, so the start only notes the thread's allocation counter; the first
     * check (the first checkpoint, or concatenations that built enough) works the start's heap out from it
     * ({@link #knowBaseline}).
     */
    void start() {
        exhausted = false;
        baselineKnown = false;
        readBy = null;
        long allocated = ThreadAllocation.ofCurrentThread();
        if (allocated < 0) {
            startedBy = null;
            knowBaseline();
            return;
        }
        startedBy = Thread.currentThread();
        allocatedAtStart = allocated;
    }

    /** Whether the heap of the script's start is known: until then every check reads the heap. */
    boolean baselineKnown() {
        return baselineKnown;
    }

    /**
     * The heap in use when the script started, worked out at the first check: the heap now, less what the starting
     * thread allocated since (as if all of it were still held: the growth is never under-counted, and over-counted
     * only by what the script allocated before its first check, a checkpoint's instructions at most). Read on
     * another thread (a coroutine's, which {@link #beforeCoroutine} rules out), the heap now stands for it.
     */
    private void knowBaseline() {
        if (baselineKnown) {
            return;
        }
        long used = used();
        Thread thread = Thread.currentThread();
        long allocated = thread == startedBy ? ThreadAllocation.ofCurrentThread() : -1;
        baseline = allocated < 0 ? used : used - (allocated - allocatedAtStart);
        trigger = baseline + limitBytes;
        baselineKnown = true;
        if (allocated >= 0) {
            readBy = thread;
            allocatedAtRead = allocated;
        }
    }

    /** A coroutine is about to start: its thread's allocations are not counted, so the heap is read first. */
    void beforeCoroutine() {
        knowBaseline();
    }

    /** Whether the running script was failed for memory. */
    boolean exhausted() {
        return exhausted;
    }

    /** Fails the script when what it holds passes the bound (a collection decides when the heap looks full). */
    void check() {
        if (exhausted) {
            throw outOfMemory();
        }
        if (!baselineKnown) {
            knowBaseline();
        } else if (heapCannotHaveGrown()) {
            return;
        }
        if (used() > trigger) {
            collectAndDecide();
        }
    }

    /**
     * Reading the heap takes the JVM's heap lock: on the queue scripts, at every checkpoint and concatenation, it was
     * a sixth of the engine thread's time. The heap grows by at most what is allocated, so while the thread that read
     * it last (or started the script) has allocated less than {@link #READ_AFTER_BYTES} (or a sixteenth of the bound)
     * since, no read can tell anything new. A check on another thread (a coroutine's) always reads.
     */
    private boolean heapCannotHaveGrown() {
        long allocated = ThreadAllocation.ofCurrentThread();
        if (allocated < 0) {
            return false;
        }
        Thread thread = Thread.currentThread();
        if (thread == readBy && allocated - allocatedAtRead < Math.min(READ_AFTER_BYTES, limitBytes / 16)) {
            return true;
        }
        readBy = thread;
        allocatedAtRead = allocated;
        return false;
    }

    /** Before building a value of {@code bytes} at once: fails at once when it could not fit in the bound. */
    void reserve(long bytes) {
        check();
        knowBaseline();
        readBy = null; // the estimate below reads the heap itself
        if (bytes > limitBytes || used() + bytes > trigger && liveGrowth() + bytes > limitBytes) {
            exhausted = true;
            throw outOfMemory();
        }
    }

    /** {@link #reserve} for the script running on the calling thread (library functions know no state). */
    static void reserveInRunningScript(long bytes) {
        ScriptHook hook = RunningHook.orElse(null);
        if (hook != null) {
            hook.memory().reserve(bytes);
        }
    }

    /** Turns a JVM OutOfMemoryError met inside a script into the script's own failure. */
    void exhaustedByJvm() {
        exhausted = true;
    }

    private void collectAndDecide() {
        long growth = liveGrowth();
        if (growth > limitBytes) {
            exhausted = true;
            throw outOfMemory();
        }
        // next look after the script could have reached the bound again, but not in ever smaller steps
        trigger = used() + Math.max(limitBytes - growth, limitBytes / 8);
    }

    private long liveGrowth() {
        System.gc(); // rare: only when the heap grew by about the bound since the script started or last looked
        return used() - baseline;
    }

    private static long used() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static ScriptError outOfMemory() {
        return ScriptError.unpositioned(NOT_ENOUGH_MEMORY);
    }

    static final String NOT_ENOUGH_MEMORY = "not enough memory";
}
