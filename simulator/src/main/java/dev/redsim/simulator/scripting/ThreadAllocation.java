package dev.redsim.simulator.scripting;

import java.lang.management.ManagementFactory;

/**
 * The bytes the calling thread has allocated so far (HotSpot's per-thread counter: a cheap read, unlike the heap's
 * used size). Looked up on first use, so that servers that never run a long script never load the management beans;
 * -1 where the JVM does not count.
 */
final class ThreadAllocation {
    private ThreadAllocation() {
    }

    static long ofCurrentThread() {
        com.sun.management.ThreadMXBean threads = Holder.THREADS;
        return threads == null ? -1 : threads.getCurrentThreadAllocatedBytes();
    }

    private static final class Holder {
        static final com.sun.management.ThreadMXBean THREADS = lookUp();

        private static com.sun.management.ThreadMXBean lookUp() {
            try {
                if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                        && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
                    return threads;
                }
            } catch (RuntimeException | LinkageError unavailable) {
                // a runtime without java.management: every check reads the heap
            }
            return null;
        }
    }
}
