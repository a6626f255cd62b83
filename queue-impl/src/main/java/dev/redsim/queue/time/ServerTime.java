package dev.redsim.queue.time;

import java.time.InstantSource;

/**
 * The time a scripted transition uses: a clock that is Redis's own ({@link RedisClock}) is read inside the script
 * with TIME, at the moment the transition happens, so every process and every lease decision is on the server's
 * time line even across a step of that time; any other clock (a test's manual clock) is read here and passed in.
 */
public final class ServerTime {
    private ServerTime() {
    }

    /** The script argument: "" = read TIME in the script, else the clock's epoch milliseconds. */
    public static String argument(InstantSource clock) {
        return clock instanceof RedisClock ? "" : Long.toString(clock.instant().toEpochMilli());
    }
}
