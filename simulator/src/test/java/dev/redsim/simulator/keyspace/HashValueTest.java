package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** OBJECT ENCODING of hashes: listpack until a write crosses Redis 7.0's limits, then hashtable for good. */
class HashValueTest {
    /** The limits of the reference redis-server build: 512 entries, 64 bytes. */
    private static final EncodingLimits LIMITS = new EncodingLimits() {
        public long hashMaxListpackEntries() { return 512; }
        public long hashMaxListpackValue() { return 64; }
        public long setMaxIntsetEntries() { return 512; }
        public long zsetMaxListpackEntries() { return 128; }
        public long zsetMaxListpackValue() { return 64; }
        public long listMaxListpackSize() { return -2; }
    };

    private static byte[] bytes(int length) {
        return "x".repeat(length).getBytes();
    }

    @Test
    void staysListpackUpToTheEntriesLimit() {
        HashValue hash = new HashValue();
        for (int i = 0; i < 512; i++) {
            hash.set(LIMITS, Bytes.of("f" + i), bytes(64));
        }
        assertThat(hash.encoding()).isEqualTo("listpack");
        hash.set(LIMITS, Bytes.of("f511"), bytes(1));
        assertThat(hash.encoding()).isEqualTo("listpack");
        hash.set(LIMITS, Bytes.of("f512"), bytes(1));
        assertThat(hash.encoding()).isEqualTo("hashtable");
        hash.remove(Bytes.of("f512"));
        assertThat(hash.encoding()).as("no way back").isEqualTo("hashtable");
    }

    @Test
    void aLongFieldOrValueConverts() {
        HashValue byValue = new HashValue();
        byValue.set(LIMITS, Bytes.of("f"), bytes(65));
        assertThat(byValue.encoding()).isEqualTo("hashtable");
        HashValue byField = new HashValue();
        byField.set(LIMITS, Bytes.wrap(bytes(65)), bytes(1));
        assertThat(byField.encoding()).isEqualTo("hashtable");
    }

    @Test
    void argumentsConvertBeforeTheWriteOnlyWithinTheirRange() {
        HashValue hash = new HashValue();
        byte[][] args = {"hset".getBytes(), "h".getBytes(), "f".getBytes(), bytes(65)};
        hash.convertForArguments(LIMITS, args, 2, 2);
        assertThat(hash.encoding()).isEqualTo("listpack");
        hash.convertForArguments(LIMITS, args, 2, 3);
        assertThat(hash.encoding()).isEqualTo("hashtable");
    }

    @Test
    void copiesKeepTheEncodingAndAreIndependent() {
        HashValue hash = new HashValue();
        hash.set(LIMITS, Bytes.of("a"), bytes(65));
        HashValue copy = hash.copy();
        copy.remove(Bytes.of("a"));
        assertThat(copy.encoding()).isEqualTo("hashtable");
        assertThat(hash.size()).isEqualTo(1);
    }
}
