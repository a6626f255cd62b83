package dev.redsim.simulator;

/**
 * A simulator's threads as they come up while its own thread wires the engine: made from the start of the
 * constructor (decisions 0031, 0049), joined once the engine is wired, or stopped when the start fails.
 */
interface ThreadsStart {
    /** The threads, ready; a failure to make them is rethrown as it was. */
    ServerThreads join();

    /** For a start that failed on the caller's side: stops what was made, leaving no thread behind. */
    void abandon();

    /** Threads made already (a cluster's, which its nodes share). */
    static ThreadsStart made(ServerThreads threads) {
        return new ThreadsStart() {
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
