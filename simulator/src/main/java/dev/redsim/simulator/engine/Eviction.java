package dev.redsim.simulator.engine;

import dev.redsim.simulator.keyspace.AccessTracked;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Database;
import dev.redsim.simulator.keyspace.RedisValue;

import java.util.List;
import java.util.Random;

/**
 * Key eviction under maxmemory, as Redis's evict.c does it: before a command, while used memory is over the limit,
 * a victim is chosen and removed. The LRU, LFU and TTL policies sample maxmemory-samples keys of each database
 * into a pool of the 16 best candidates seen so far (the pool outlives each round, so good candidates found
 * earlier are not forgotten) and evict the best; the random policies take a random key, going round the
 * databases. The cost is O(samples x databases) per evicted key, never a scan of the keyspace.
 */
final class Eviction {
    private static final int POOL_SIZE = 16;

    private final Engine engine;
    private final Random random;
    /** Candidates in ascending score order; the best (highest score) last; nulls after the last entry. */
    private final Candidate[] pool = new Candidate[POOL_SIZE];
    /** Where the random policies start looking next (Redis's static next_db). */
    private int nextDb;

    /** A key worth evicting: the higher the score, the better (idle time, 255 - LFU counter, or nearness of TTL). */
    private record Candidate(long score, Bytes key, int db) {
    }

    Eviction(Engine engine, Random random) {
        this.engine = engine;
        this.random = random;
    }

    /**
     * Redis's performEvictions: evicts until used memory is under maxmemory. Returns false when memory stays over
     * the limit (noeviction, or no key the policy may evict is left): the caller then refuses denyoom commands.
     */
    boolean perform(long maxmemory, EvictionPolicy policy, int samples) {
        long used = engine.usedMemory();
        while (used > maxmemory) {
            if (policy == EvictionPolicy.NOEVICTION) {
                return false;
            }
            Candidate victim = policy.choice == EvictionPolicy.Choice.RANDOM
                    ? randomVictim(policy.volatileOnly) : pooledVictim(policy, samples);
            if (victim == null) {
                return false; // nothing left that the policy may evict
            }
            engine.evict(engine.database(victim.db()), victim.key());
            used = engine.usedMemory();
        }
        return true;
    }

    private Candidate randomVictim(boolean volatileOnly) {
        Database[] dbs = engine.databases();
        for (int i = 0; i < dbs.length; i++) {
            nextDb = (nextDb + 1) % dbs.length;
            Bytes key = dbs[nextDb].randomKey(volatileOnly, random);
            if (key != null) {
                return new Candidate(0, key, nextDb);
            }
        }
        return null;
    }

    /** Fills the pool from every database, then takes the best candidate that still exists; again while none does. */
    private Candidate pooledVictim(EvictionPolicy policy, int samples) {
        while (true) {
            long keys = 0;
            for (Database db : engine.databases()) {
                int size = policy.volatileOnly ? db.expiresCount() : db.size();
                if (size > 0) {
                    populate(db, policy, samples);
                    keys += size;
                }
            }
            if (keys == 0) {
                return null;
            }
            for (int k = POOL_SIZE - 1; k >= 0; k--) {
                Candidate candidate = pool[k];
                if (candidate == null) {
                    continue;
                }
                remove(k);
                Database db = engine.database(candidate.db());
                boolean present = policy.volatileOnly ? db.expireAt(candidate.key()) != -1 && db.stored(candidate.key()) != null
                        : db.stored(candidate.key()) != null;
                if (present) {
                    return candidate;
                }
                // a ghost: the key went since it was sampled; try the next best
            }
        }
    }

    /** Redis's evictionPoolPopulate: samples keys of one database and keeps the best in the pool. */
    private void populate(Database db, EvictionPolicy policy, int samples) {
        List<Bytes> sampled = db.sampleKeys(samples, policy.volatileOnly, random);
        long now = engine.time().millis();
        for (Bytes key : sampled) {
            RedisValue value = db.stored(key);
            if (value == null) {
                continue;
            }
            long score = switch (policy.choice) {
                case LRU -> Math.max(0, now - value.accessedAt());
                case LFU -> 255 - ((AccessTracked) value).lfuDecayed(now, engine.lfuDecayTime());
                case TTL -> Long.MAX_VALUE - db.expireAt(key);
                default -> 0;
            };
            insert(new Candidate(score, key, db.id()));
        }
    }

    private void insert(Candidate candidate) {
        int k = 0;
        while (k < POOL_SIZE && pool[k] != null && pool[k].score() < candidate.score()) {
            k++;
        }
        if (k == 0 && pool[POOL_SIZE - 1] != null) {
            return; // worse than everything in a full pool
        }
        if (k < POOL_SIZE && pool[k] == null) {
            pool[k] = candidate;
            return;
        }
        if (pool[POOL_SIZE - 1] == null) {
            System.arraycopy(pool, k, pool, k + 1, POOL_SIZE - k - 1); // room at the end: shift the better ones up
        } else {
            k--; // full: drop the worst (first) to make room below the better ones
            System.arraycopy(pool, 1, pool, 0, k);
        }
        pool[k] = candidate;
    }

    private void remove(int k) {
        System.arraycopy(pool, k + 1, pool, k, POOL_SIZE - k - 1);
        pool[POOL_SIZE - 1] = null;
    }

    /** FLUSHALL, SWAPDB and the like make every pooled key meaningless; the pool starts again. */
    void forgetPool() {
        java.util.Arrays.fill(pool, null);
    }
}
