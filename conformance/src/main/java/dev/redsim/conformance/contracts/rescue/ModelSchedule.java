package dev.redsim.conformance.contracts.rescue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The few @every expressions the generated histories use, whose ticks are plain epoch arithmetic (each period
 * divides a UTC day), so the model computes them independently of any calendar code.
 */
record ModelSchedule(String expression, long periodMillis, long offsetMillis) {
    static final List<ModelSchedule> ALL = List.of(
            new ModelSchedule("minute", 60_000, 0),
            new ModelSchedule("15 minutes", 900_000, 0),
            new ModelSchedule("hour", 3_600_000, 0),
            new ModelSchedule("hour at **:30", 3_600_000, 1_800_000),
            new ModelSchedule("6 hours", 21_600_000, 0),
            new ModelSchedule("day at 08:00", 86_400_000, 28_800_000));

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    long previous(long now) {
        return Math.floorDiv(now - offsetMillis, periodMillis) * periodMillis + offsetMillis;
    }

    long next(long now) {
        return previous(now) + periodMillis;
    }

    static ModelSchedule of(String expression) {
        return ALL.stream().filter(s -> s.expression.equals(expression)).findFirst().orElseThrow();
    }

    /** The README's timestamp format. */
    static String format(long millis) {
        return FORMAT.format(Instant.ofEpochMilli(millis));
    }
}
