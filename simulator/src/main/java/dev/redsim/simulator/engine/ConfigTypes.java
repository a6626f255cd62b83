package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.version.RedisVersion;
import dev.redsim.simulator.keyspace.Numbers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * How CONFIG SET validates each parameter (config-types.tsv, probed from the imitated redis-server): yes/no
 * booleans, enums with their allowed names, integers with their bounds, memory values with units, free
 * strings, and a few parameters with their own syntax. Errors carry Redis's texts, without the
 * "CONFIG SET failed" prefix the command adds.
 */
final class ConfigTypes {
    private final Map<String, String[]> kinds;

    private ConfigTypes(Map<String, String[]> kinds) {
        this.kinds = kinds;
    }

    /**
     * The table of the imitated version, read once per JVM: it is immutable, and every simulator started in a test
     * suite would otherwise read and split the same resource again (a fifth of a later start's time).
     */
    static ConfigTypes load() {
        return Imitated.TYPES;
    }

    /**
     * Holder: the resource is read when a value is first checked (CONFIG SET, a start's configuration parameters),
     * so a plain start reads only the defaults (decision 0035).
     */
    private static final class Imitated {
        static final ConfigTypes TYPES = read();
    }

    private static ConfigTypes read() {
        Map<String, String[]> kinds = new HashMap<>();
        try (InputStream in = ConfigTypes.class.getResourceAsStream(RedisVersion.IMITATED.configTypes());
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty() && !line.startsWith("#")) {
                    String[] parts = line.split("\t", -1);
                    kinds.put(parts[0], new String[] {parts[1], parts.length > 2 ? parts[2] : ""});
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ConfigTypes(Map.copyOf(kinds));
    }

    /** bool, enum, int, memory, string, immutable, protected, special; null when not listed. */
    String kind(String name) {
        String[] entry = entry(name);
        return entry == null ? null : entry[0];
    }

    private String[] entry(String name) {
        String[] entry = kinds.get(name.toLowerCase());
        return entry != null ? entry : kinds.get(Config.canonical(name));
    }

    /** The value to store for this parameter, or Redis's error for it. */
    String validate(String name, String value) {
        String[] entry = entry(name);
        if (entry == null) {
            return value;
        }
        String detail = entry[1];
        return switch (entry[0]) {
            case "bool" -> bool(value);
            case "enum" -> enumValue(detail, value);
            case "int" -> integer(detail, value);
            case "memory" -> memory(detail, value);
            case "special" -> special(name, value);
            default -> value;
        };
    }

    private static String bool(String value) {
        String v = value.toLowerCase();
        if (!v.equals("yes") && !v.equals("no")) {
            throw new RedisError("argument must be 'yes' or 'no'");
        }
        return v;
    }

    private static String enumValue(String allowed, String value) {
        for (String choice : allowed.split(", ")) {
            if (choice.equalsIgnoreCase(value)) {
                return choice;
            }
        }
        throw new RedisError("argument(s) must be one of the following: " + allowed);
    }

    private static String integer(String bounds, String value) {
        Long parsed = Numbers.parseLongStrict(value.getBytes(StandardCharsets.UTF_8));
        if (parsed == null) {
            throw new RedisError("argument couldn't be parsed into an integer");
        }
        checkBounds(bounds, parsed);
        return Long.toString(parsed);
    }

    private static String memory(String bounds, String value) {
        Long parsed = memoryValue(value);
        if (parsed == null) {
            throw new RedisError("argument must be a memory value");
        }
        if (!bounds.isEmpty()) {
            checkBounds(bounds, parsed);
        }
        return Long.toString(parsed);
    }

    /** Digits with an optional unit (b, k, kb, m, mb, g, gb, any case); no sign, no fraction. */
    static Long memoryValue(String value) {
        if (value.isEmpty() || !Character.isDigit(value.charAt(0))) {
            return null;
        }
        return Config.parseMemory(value);
    }

    private static void checkBounds(String bounds, long value) {
        if (bounds.isEmpty()) {
            return;
        }
        String[] range = bounds.split(" ");
        long min = Long.parseLong(range[0]);
        // Bounds above Long.MAX_VALUE (unsigned parameters) cannot be exceeded by a parsed long.
        long max = range[1].length() > 18 && range[1].compareTo("9223372036854775807") > 0
                ? Long.MAX_VALUE : Long.parseLong(range[1]);
        if (value < min || value > max) {
            throw new RedisError("argument must be between " + range[0] + " and " + range[1] + " inclusive");
        }
    }

    private static String special(String name, String value) {
        switch (Config.canonical(name)) {
            case "save" -> {
                String[] parts = value.isEmpty() ? new String[0] : value.split(" ", -1);
                if (parts.length % 2 != 0) {
                    throw new RedisError("Invalid save parameters");
                }
                for (String part : parts) {
                    Long n = Numbers.parseLongStrict(part.getBytes(StandardCharsets.UTF_8));
                    if (n == null || n < 0) {
                        throw new RedisError("Invalid save parameters");
                    }
                }
                return String.join(" ", parts);
            }
            case "maxmemory-clients" -> {
                boolean percent = value.endsWith("%");
                Long parsed = memoryValue(percent ? value.substring(0, value.length() - 1) : value);
                if (parsed == null) {
                    throw new RedisError("argument must be a memory or percent value");
                }
                if (percent && parsed > 100) {
                    throw new RedisError("percentage argument must be less or equal to 100");
                }
                return percent ? parsed + "%" : Long.toString(parsed);
            }
            default -> {
                return value;
            }
        }
    }
}
