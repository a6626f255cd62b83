package dev.redsim.samples.downstream;

import dev.redsim.simulator.RedisSimulator;
import io.netty.channel.epoll.Epoll;
import io.netty.util.Version;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the simulator's switch from netty-all to Netty's modules is for: on a class path shared with Lettuce and
 * Redisson, every Netty module is there once, all at one version (the one this pom's netty-bom chooses), and the
 * simulator runs on it.
 */
class NettyClassPathTest {
    /** Set by this module's pom from its netty.version property. */
    private static final String EXPECTED = System.getProperty("sample.netty.version");

    @Test
    void everyNettyModuleIsPresentOnceAtOneVersion() {
        Map<String, String> modules = new TreeMap<>();
        Version.identify().forEach((artifact, version) -> modules.put(artifact, version.artifactVersion()));
        assertThat(modules).as("Netty modules on the test class path")
                .doesNotContainKey("netty-all")
                .containsKeys("netty-common", "netty-buffer", "netty-transport", "netty-codec", "netty-handler",
                        "netty-transport-classes-epoll");
        assertThat(modules.values()).as("versions of %s", modules).containsOnly(EXPECTED);
    }

    @Test
    void simulatorRunsOnTheClientsNetty() {
        assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux")
                && System.getProperty("os.arch").matches("amd64|x86_64|aarch64"), "Netty's native epoll: Linux only");
        // The native library shipped for the simulator matches the classes that the class path now holds.
        assertThat(Epoll.isAvailable()).as("epoll: %s", Epoll.unavailabilityCause()).isTrue();
        try (RedisSimulator redis = RedisSimulator.start()) {
            assertThat(redis.port()).isPositive();
        }
    }
}
