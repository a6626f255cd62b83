package dev.redsim.queue.connection;

import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;

import java.util.concurrent.locks.LockSupport;

/**
 * How a Redis Cluster refuses a transition while the slot of its keys moves, and what a queue does about it. The
 * refusal may reach the queue as Jedis's own exception or wrapped in a queue's exception (RedisFailureException...),
 * so the whole cause chain is read.
 * <ul>
 *   <li>MOVED: the slot has moved. The client's slot map is renewed and the transition runs on the new owner.</li>
 *   <li>ASK, TRYAGAIN, a script that touched a key this node does not serve ("non local key": moved already, or
 *   not there yet in a migrating slot; the scripts probe such keys before their first write), or a transaction discarded because one of its commands was refused (EXECABORT): the slot is
 *   migrating and the keys are split between two nodes. The queue does not follow ASK: a script builds keys of the
 *   job it pops (Conveyor) from the queue's prefix, and on the importing node those it has not received yet would
 *   read as missing. It waits for the migration to end instead.</li>
 * </ul>
 */
final class SlotMoves {
    /** The longest pause between two tries while a slot migrates. */
    static final long MAX_PAUSE_MILLIS = 50;
    /** How long a transition keeps trying before it gives the refusal to its caller (as a failure of Redis). */
    static final long BOUND_MILLIS = 20_000;

    /** NONE: not a refusal of the cluster. MOVED: go to the new owner at once. MIGRATING: wait, then try again. */
    enum Refusal { NONE, MOVED, MIGRATING }

    private SlotMoves() {
    }

    static Refusal classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JedisMovedDataException) {
                return Refusal.MOVED;
            }
            if (t instanceof JedisAskDataException) {
                return Refusal.MIGRATING;
            }
            String message = t.getMessage();
            if (message == null) {
                continue;
            }
            if (message.startsWith("TRYAGAIN") || message.contains("EXECABORT") || message.contains("-TRYAGAIN")
                    || message.contains(" TRYAGAIN ")
                    || message.contains("non local key")) {
                return Refusal.MIGRATING;
            }
        }
        return Refusal.NONE;
    }

    /** A pause between tries; an interrupt ends it early and stays set, for the caller's loop to see. */
    static void pause(long millis) {
        LockSupport.parkNanos(millis * 1_000_000L);
    }
}
