package dev.redsim.simulator.keyspace;

/**
 * The *-max-listpack-* / set-max-intset-entries thresholds that decide OBJECT ENCODING, read from the config
 * when asked, so CONFIG SET changes what later writes report, as in Redis.
 */
public interface EncodingLimits {
    long hashMaxListpackEntries();

    long hashMaxListpackValue();

    long setMaxIntsetEntries();

    long zsetMaxListpackEntries();

    long zsetMaxListpackValue();

    long listMaxListpackSize();

    EncodingLimits DEFAULTS = new EncodingLimits() {
        public long hashMaxListpackEntries() { return 128; }
        public long hashMaxListpackValue() { return 64; }
        public long setMaxIntsetEntries() { return 512; }
        public long zsetMaxListpackEntries() { return 128; }
        public long zsetMaxListpackValue() { return 64; }
        public long listMaxListpackSize() { return -2; }
    };
}
