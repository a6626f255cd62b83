package dev.redsim.queue.jq.master;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The master's command line. */
class MasterMainTest {
    @Test
    void everyOptionReachesTheSettings() {
        MasterMain.Options o = MasterMain.parse(new String[] {"--port", "0", "--bind", "0.0.0.0",
            "--redis", "redis://:pw@db:6380/2", "--prefix", "{jq}:", "--api-token", "t0k",
            "--push-allow", "http://10.0.0.7:8081/,http://10.0.0.8:8081/", "--push-allow", "http://w3/",
            "--finished-retention", "7d", "--result-retention", "PT30M", "--transitions", "optimistic"});
        assertThat(o.port()).isZero();
        assertThat(o.bind()).isEqualTo("0.0.0.0");
        assertThat(o.redis()).isEqualTo("redis://:pw@db:6380/2");
        assertThat(o.clusterSeeds()).isEmpty();
        assertThat(new String(o.settings().keys().sequence())).isEqualTo("{jq}:seq");
        assertThat(o.settings().apiToken()).isEqualTo("t0k");
        assertThat(o.settings().pushAllowList())
            .containsExactly("http://10.0.0.7:8081/", "http://10.0.0.8:8081/", "http://w3/");
        assertThat(o.settings().options().finishedRetention()).isEqualTo(Duration.ofDays(7));
        assertThat(o.settings().options().resultRetention()).isEqualTo(Duration.ofMinutes(30));
        assertThat(o.settings().options().transitions()).isEqualTo(dev.redsim.queue.script.Transitions.OPTIMISTIC);
    }

    @Test
    void defaultsAndBadInput() {
        MasterMain.Options o = MasterMain.parse(new String[0]);
        assertThat(o.port()).isEqualTo(8080);
        assertThat(o.settings().apiToken()).isNull();
        assertThat(o.settings().pushAllowList()).isEqualTo(List.of());
        assertThat(o.settings().options().transitions()).isEqualTo(dev.redsim.queue.script.Transitions.SCRIPTS);
        assertThatThrownBy(() -> MasterMain.parse(new String[] {"--transitions", "lua"}))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MasterMain.parse(new String[] {"--nope", "1"}))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MasterMain.parse(new String[] {"--port"}))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MasterMain.duration("3w")).isInstanceOf(IllegalArgumentException.class);
        assertThat(MasterMain.withoutPassword(URI.create("redis://:pw@db:6380"))).isEqualTo("redis://***@db:6380");
    }
}
