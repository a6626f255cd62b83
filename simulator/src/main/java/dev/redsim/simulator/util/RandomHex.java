package dev.redsim.simulator.util;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random hex names for what Redis names with getRandomHexChars: the run id and the replication ids. They must differ
 * from server to server and from one id change to the next, not resist an attacker, so they come from the calling
 * thread's ThreadLocalRandom: a first {@code new SecureRandom()} in a fresh JVM loads the security providers (about
 * 30 ms of a first start, decision 0031). ACL GENPASS, which makes secrets, keeps SecureRandom.
 */
public final class RandomHex {
    private RandomHex() {
    }

    /** {@code length} random lower-case hex characters (Redis's ids are 40: CONFIG_RUN_ID_SIZE). */
    public static String of(int length) {
        byte[] random = new byte[(length + 1) / 2];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random).substring(0, length);
    }
}
