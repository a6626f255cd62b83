package dev.redsim.samples.downstream;

import io.netty.util.Version;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator brings no Netty (decision 0051: it runs on a transport of its own): on a class path shared with
 * Lettuce and Redisson, every Netty module is one the clients asked for, each present once and all at one version (the
 * one this pom's netty-bom chooses). The epoll transport's modules, which only the simulator brought before, are
 * absent; the other tests of this module run the clients against the simulator on this class path.
 */
class NettyClassPathTest {
    /** Set by this module's pom from its netty.version property. */
    private static final String EXPECTED = System.getProperty("sample.netty.version");

    @Test
    void everyNettyModuleIsTheClientsAtOneVersion() {
        Map<String, String> modules = new TreeMap<>();
        Version.identify().forEach((artifact, version) -> modules.put(artifact, version.artifactVersion()));
        assertThat(modules).as("Netty modules on the test class path")
                .doesNotContainKey("netty-all")
                .doesNotContainKeys("netty-transport-classes-epoll", "netty-transport-native-epoll")
                .containsKeys("netty-common", "netty-buffer", "netty-transport", "netty-codec", "netty-handler");
        assertThat(modules.values()).as("versions of %s", modules).containsOnly(EXPECTED);
    }
}
