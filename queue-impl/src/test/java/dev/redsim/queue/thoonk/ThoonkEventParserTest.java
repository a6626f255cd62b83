package dev.redsim.queue.thoonk;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ThoonkEventParserTest {
    @Test
    void splitsAtTheFirstNulOnly() {
        assertThat(ThoonkEventParser.parse("job.finish:jobs", "id1\u0000res\u0000ult"))
            .isEqualTo(new ThoonkEvent.JobFinished("jobs", "id1", "res\u0000ult"));
    }

    @Test
    void feedNamesMayContainColons() {
        assertThat(ThoonkEventParser.parse("feed.retract:a:b", "x")).isEqualTo(new ThoonkEvent.Retracted("a:b", "x"));
        assertThat(ThoonkEventParser.parse("feed.position:a:b", "7\u0000:3"))
            .isEqualTo(new ThoonkEvent.Positioned("a:b", "7", ":3"));
    }

    @Test
    void adminChannelsCarryTheInstance() {
        assertThat(ThoonkEventParser.parse("newfeed", "f\u0000uuid")).isEqualTo(new ThoonkEvent.FeedCreated("f", "uuid"));
        assertThat(ThoonkEventParser.parse("delfeed", "f\u0000uuid")).isEqualTo(new ThoonkEvent.FeedDeleted("f", "uuid"));
    }

    @Test
    void otherChannelsAreIgnored() {
        assertThat(ThoonkEventParser.parse("somewhere", "x")).isNull();
        assertThat(ThoonkEventParser.parse("feed.other:f", "x")).isNull();
    }
}
