package dev.redsim.queue.rescue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The README's @every DSL, every row and column, in UTC, from Thursday 2023-09-28T14:23:24Z. */
class RescueCronTest {
    private static final Instant NOW = Instant.parse("2023-09-28T14:23:24.161982Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "minute                      | 2023-09-28T14:23:00Z | 2023-09-28T14:24:00Z",
            "15 minutes                  | 2023-09-28T14:15:00Z | 2023-09-28T14:30:00Z",
            "hour                        | 2023-09-28T14:00:00Z | 2023-09-28T15:00:00Z",
            "4 hours                     | 2023-09-28T12:00:00Z | 2023-09-28T16:00:00Z",
            "6 hours                     | 2023-09-28T12:00:00Z | 2023-09-28T18:00:00Z",
            "hour at **:30               | 2023-09-28T13:30:00Z | 2023-09-28T14:30:00Z",
            "4 hours at **:30            | 2023-09-28T12:30:00Z | 2023-09-28T16:30:00Z",
            "day                         | 2023-09-28T00:00:00Z | 2023-09-29T00:00:00Z",
            "5 days                      | 2023-09-26T00:00:00Z | 2023-10-01T00:00:00Z",
            "day at 08:00                | 2023-09-28T08:00:00Z | 2023-09-29T08:00:00Z",
            "5 days at 08:00             | 2023-09-26T08:00:00Z | 2023-10-01T08:00:00Z",
            "week                        | 2023-09-25T00:00:00Z | 2023-10-02T00:00:00Z",
            "week on Wednesday           | 2023-09-27T00:00:00Z | 2023-10-04T00:00:00Z",
            "week on Wednesday at 06:00  | 2023-09-27T06:00:00Z | 2023-10-04T06:00:00Z",
            "2 weeks on Wednesday        | 2023-09-27T00:00:00Z | 2023-10-11T00:00:00Z",
            "2 weeks                     | 2023-09-25T00:00:00Z | 2023-10-09T00:00:00Z",
            "month                       | 2023-09-01T00:00:00Z | 2023-10-01T00:00:00Z",
            "3 months                    | 2023-07-01T00:00:00Z | 2023-10-01T00:00:00Z",
            "month on the 15th           | 2023-09-15T00:00:00Z | 2023-10-15T00:00:00Z",
            "month on the 15th at 17:00  | 2023-09-15T17:00:00Z | 2023-10-15T17:00:00Z",
            "3 months on the 15th at 17:00 | 2023-07-15T17:00:00Z | 2023-10-15T17:00:00Z",
            "month on the 31st           | 2023-08-31T00:00:00Z | 2023-10-31T00:00:00Z",
            "month at 17:00              | 2023-09-01T17:00:00Z | 2023-10-01T17:00:00Z",
    })
    void ticksAroundNow(String expression, String previous, String next) {
        Cron cron = Cron.parse(expression);
        assertThat(cron.previous(NOW)).isEqualTo(Instant.parse(previous));
        assertThat(cron.next(NOW)).isEqualTo(Instant.parse(next));
    }

    @Test
    void aTickInstantIsItsOwnPreviousTick() {
        Cron cron = Cron.parse("6 hours");
        Instant tick = Instant.parse("2023-09-28T18:00:00Z");
        assertThat(cron.previous(tick)).isEqualTo(tick);
        assertThat(cron.next(tick)).isEqualTo(Instant.parse("2023-09-29T00:00:00Z"));
    }

    @Test
    void timestampsUseTheReadmeFormat() {
        assertThat(Cron.format(NOW)).isEqualTo("2023-09-28T14:23:24.161982Z");
        assertThat(Cron.parseTime("2023-09-28T14:23:24.161982Z")).isEqualTo(NOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "minutes", "2 minute", "0 minutes", "61 minutes", "25 hours", "13 months",
            "every day", "day at **:30", "hour at 08:00", "minute at 08:00", "week on the 15th",
            "month on Wednesday", "day at 24:00", "day at 08:60", "week on Someday", "month on the 32nd",
            "6 hours at 12:00"})
    void rejectsWhatTheDslDoesNotSay(String expression) {
        assertThatThrownBy(() -> Cron.parse(expression)).isInstanceOf(InvalidTaskException.class);
    }
}
