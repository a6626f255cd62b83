package dev.redsim.simulator;

/**
 * A simulator's threads as they come up while its own thread wires the engine: made on a helper thread from the
 * start of the constructor (decision 0031), joined once the engine is wired, or stopped when the start fails.
 */
interface ThreadsStart {
    /** Called by the starting thread once the engine is wired, before {@link #join()}: warm-ups that fit there. */
    void prepareOnStartingThread();

    /** The threads, ready; a failure to make them is rethrown as it was. */
    ServerThreads join();

    /** For a start that failed on the caller's side: stops what was made, leaving no thread behind. */
    void abandon();

    /** Threads made already (a cluster's, which its nodes share). */
    static ThreadsStart made(ServerThreads threads) {
        return new ThreadsStart() {
            @Override
            public void prepareOnStartingThread() {
            }

            @Override
            public ServerThreads join() {
                return threads;
            }

            @Override
            public void abandon() {
            }
        };
    }
}
