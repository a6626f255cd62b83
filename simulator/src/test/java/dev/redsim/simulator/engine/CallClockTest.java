package dev.redsim.simulator.engine;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The call clock keeps one reading for the call that took it, gives it to calls nested in that one, and reads the
 * time source again once the call ended, so clock control between calls is seen at once.
 */
class CallClockTest {

    @Test
    void aCallKeepsItsReadingAndNestedCallsShareIt() {
        TimeSource time = new TimeSource(Clock.systemUTC());
        time.freeze();
        CallClock clock = new CallClock(time);
        long start = time.millis();

        assertThat(clock.hold()).isTrue();
        time.advance(Duration.ofSeconds(5)); // as a test thread would, while the call runs
        assertThat(clock.millis()).isEqualTo(start);
        assertThat(clock.hold()).isFalse(); // a nested call (EXEC's commands, a script's) owns nothing
        assertThat(clock.millis()).isEqualTo(start);
        clock.release();

        assertThat(clock.millis()).isEqualTo(start + 5000); // outside a call: the time source itself
        assertThat(clock.hold()).isTrue();
        assertThat(clock.millis()).isEqualTo(start + 5000);
        clock.release();
    }
}
