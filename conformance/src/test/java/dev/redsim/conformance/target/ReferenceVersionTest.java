package dev.redsim.conformance.target;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A reference server of another major.minor than the version under test is refused, unless overridden. */
class ReferenceVersionTest {
    @Test
    void theVersionUnderTestIsTheSimulators() {
        try (SimulatorTarget simulator = new SimulatorTarget()) {
            assertThat(ReferenceVersion.of(simulator)).isEqualTo(ReferenceVersion.UNDER_TEST); // read from INFO server
        }
    }

    @Test
    void anyPatchLevelOfTheSameMinorIsAccepted() {
        assertThatCode(() -> ReferenceVersion.check("7.0.15", "7.0.15", false, "redis")).doesNotThrowAnyException();
        assertThatCode(() -> ReferenceVersion.check("7.0.0", "7.0.15", false, "redis")).doesNotThrowAnyException();
        assertThatCode(() -> ReferenceVersion.check("7.0.99-rc1", "7.0.15", false, "redis")).doesNotThrowAnyException();
    }

    @Test
    void anotherMinorOrMajorIsRefusedWithTheOverrideNamed() {
        for (String other : new String[] {"7.2.4", "6.2.14", "70.1.1", "8.0.0", "garbage", ""}) {
            assertThatThrownBy(() -> ReferenceVersion.check(other, "7.0.15", false, "redis-server at 127.0.0.1:1"))
                    .as(other)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("redis-server at 127.0.0.1:1 is Redis " + other + ", but the version under test is 7.0 (7.0.15)")
                    .hasMessageContaining("-Dredsim.ignoreRedisVersion=true")
                    .hasMessageContaining("REDSIM_IGNORE_REDIS_VERSION=true");
        }
    }

    @Test
    void theOverrideAcceptsAnyVersion() {
        assertThatCode(() -> ReferenceVersion.check("7.2.4", "7.0.15", true, "redis")).doesNotThrowAnyException();
    }

    @Test
    void majorMinorOfAVersion() {
        assertThat(ReferenceVersion.majorMinor("7.0.15")).isEqualTo("7.0");
        assertThat(ReferenceVersion.majorMinor("7")).isNull();
        assertThat(ReferenceVersion.majorMinor("x.y.z")).isNull();
    }
}
