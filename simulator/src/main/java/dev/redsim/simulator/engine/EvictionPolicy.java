package dev.redsim.simulator.engine;

/** The maxmemory-policy values: which keys may go (all, or those with a TTL) and how the victim is chosen. */
enum EvictionPolicy {
    NOEVICTION(false, Choice.NONE),
    ALLKEYS_LRU(false, Choice.LRU),
    ALLKEYS_LFU(false, Choice.LFU),
    ALLKEYS_RANDOM(false, Choice.RANDOM),
    VOLATILE_LRU(true, Choice.LRU),
    VOLATILE_LFU(true, Choice.LFU),
    VOLATILE_RANDOM(true, Choice.RANDOM),
    VOLATILE_TTL(true, Choice.TTL);

    /** How a victim is chosen: from the eviction pool by a score (LRU, LFU, TTL), or at random. */
    enum Choice { NONE, LRU, LFU, TTL, RANDOM }

    final boolean volatileOnly;
    final Choice choice;

    EvictionPolicy(boolean volatileOnly, Choice choice) {
        this.volatileOnly = volatileOnly;
        this.choice = choice;
    }

    /** From CONFIG's form ("allkeys-lru"); the config layer has validated it. */
    static EvictionPolicy parse(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT).replace('-', '_'));
    }

    boolean lfu() {
        return choice == Choice.LFU;
    }
}
