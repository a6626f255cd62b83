package dev.redsim.queue.rescue;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's "@every" DSL, in UTC: {@code minute | N minutes}, {@code hour | N hours [at **:MM]},
 * {@code day | N days [at HH:MM]}, {@code week | N weeks [on <Weekday>] [at HH:MM]},
 * {@code month | N months [on the Dth] [at HH:MM]}. Ticks follow cron's step rule: every N-th unit counted from
 * the start of the next larger unit (minute of the hour, hour of the day, day of the month, month of the year);
 * weeks have no larger unit and are counted from the Monday-based week of 1970-01-01.
 */
public final class Cron {
    private static final Pattern SYNTAX = Pattern.compile(
            "(?:(\\d+) )?(minute|hour|day|week|month)s?"
                    + "(?: on (?:the (\\d{1,2})(?:st|nd|rd|th)|([A-Za-z]+)))?"
                    + "(?: at (\\*\\*|\\d{2}):(\\d{2}))?");
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private enum Unit { MINUTE, HOUR, DAY, WEEK, MONTH }

    private final String expression;
    private final Unit unit;
    private final int quantity;
    private final int hour;
    private final int minute;
    private final int dayOfMonth;
    private final DayOfWeek weekday;

    private Cron(String expression, Unit unit, int quantity, int hour, int minute, int dayOfMonth,
                 DayOfWeek weekday) {
        this.expression = expression;
        this.unit = unit;
        this.quantity = quantity;
        this.hour = hour;
        this.minute = minute;
        this.dayOfMonth = dayOfMonth;
        this.weekday = weekday;
    }

    /** @throws InvalidTaskException for anything outside the DSL */
    public static Cron parse(String expression) {
        Matcher m = SYNTAX.matcher(expression.trim());
        if (!m.matches()) {
            throw new InvalidTaskException("not an @every expression: " + expression);
        }
        Unit unit = Unit.valueOf(m.group(2).toUpperCase(Locale.ROOT));
        int quantity = m.group(1) == null ? 1 : Integer.parseInt(m.group(1));
        boolean plural = expression.trim().matches(".*\\b(minute|hour|day|week|month)s\\b.*");
        if (m.group(1) != null && plural != (quantity != 1) || m.group(1) == null && plural) {
            throw new InvalidTaskException("quantity and unit disagree: " + expression);
        }
        checkRange(expression, quantity, 1, maxQuantity(unit));
        boolean hasAt = m.group(5) != null;
        boolean anyHour = hasAt && m.group(5).equals("**");
        if (hasAt && (unit == Unit.MINUTE || (unit == Unit.HOUR) != anyHour)) {
            throw new InvalidTaskException("'at' does not fit the unit: " + expression);
        }
        int hour = hasAt && !anyHour ? checkRange(expression, Integer.parseInt(m.group(5)), 0, 23) : 0;
        int minute = hasAt ? checkRange(expression, Integer.parseInt(m.group(6)), 0, 59) : 0;
        if (m.group(3) != null && unit != Unit.MONTH || m.group(4) != null && unit != Unit.WEEK) {
            throw new InvalidTaskException("'on' does not fit the unit: " + expression);
        }
        int dayOfMonth = m.group(3) == null ? 1 : checkRange(expression, Integer.parseInt(m.group(3)), 1, 31);
        DayOfWeek weekday = m.group(4) == null ? DayOfWeek.MONDAY : weekday(expression, m.group(4));
        return new Cron(expression, unit, quantity, hour, minute, dayOfMonth, weekday);
    }

    /** The latest tick at or before {@code now}. */
    public Instant previous(Instant now) {
        LocalDateTime t = candidateAtOrBefore(LocalDateTime.ofInstant(now, ZoneOffset.UTC));
        while (!isTick(t)) {
            t = t.minus(1, step());
        }
        return t.toInstant(ZoneOffset.UTC);
    }

    /** The earliest tick strictly after {@code now}. */
    public Instant next(Instant now) {
        LocalDateTime start = LocalDateTime.ofInstant(now, ZoneOffset.UTC);
        LocalDateTime t = candidateAtOrBefore(start).plus(1, step());
        while (!isTick(t)) {
            t = t.plus(1, step());
        }
        return t.toInstant(ZoneOffset.UTC);
    }

    public String expression() {
        return expression;
    }

    /** The README's timestamp format: microseconds, UTC, "Z". */
    public static String format(Instant instant) {
        return FORMAT.format(instant);
    }

    public static Instant parseTime(String text) {
        return FORMAT.parse(text, Instant::from);
    }

    /** Candidates are every step (minute, hour, or day) at the configured time within it. */
    private ChronoUnit step() {
        return switch (unit) {
            case MINUTE -> ChronoUnit.MINUTES;
            case HOUR -> ChronoUnit.HOURS;
            default -> ChronoUnit.DAYS;
        };
    }

    private LocalDateTime candidateAtOrBefore(LocalDateTime t) {
        LocalDateTime c = switch (unit) {
            case MINUTE -> t.truncatedTo(ChronoUnit.MINUTES);
            case HOUR -> t.truncatedTo(ChronoUnit.HOURS).withMinute(minute);
            default -> t.truncatedTo(ChronoUnit.DAYS).withHour(hour).withMinute(minute);
        };
        return c.isAfter(t) ? c.minus(1, step()) : c;
    }

    private boolean isTick(LocalDateTime t) {
        Predicate<LocalDateTime> rule = switch (unit) {
            case MINUTE -> c -> c.getMinute() % quantity == 0;
            case HOUR -> c -> c.getHour() % quantity == 0;
            case DAY -> c -> (c.getDayOfMonth() - 1) % quantity == 0;
            case WEEK -> c -> c.getDayOfWeek() == weekday
                    && Math.floorMod(Math.floorDiv(c.toLocalDate().toEpochDay() + 3, 7), quantity) == 0;
            case MONTH -> c -> c.getDayOfMonth() == dayOfMonth && (c.getMonthValue() - 1) % quantity == 0;
        };
        return rule.test(t);
    }

    private static int maxQuantity(Unit unit) {
        return switch (unit) {
            case MINUTE -> 60;
            case HOUR -> 24;
            case DAY -> 31;
            case WEEK -> 52;
            case MONTH -> 12;
        };
    }

    private static int checkRange(String expression, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidTaskException("out of range (" + min + ".." + max + ") in " + expression);
        }
        return value;
    }

    private static DayOfWeek weekday(String expression, String name) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().equalsIgnoreCase(name)) {
                return d;
            }
        }
        throw new InvalidTaskException("not a weekday in " + expression);
    }
}
