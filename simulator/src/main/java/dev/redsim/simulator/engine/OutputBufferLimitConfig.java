package dev.redsim.simulator.engine;

import dev.redsim.simulator.error.RedisError;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client-output-buffer-limit parameter as Redis parses it: groups of "class hard soft seconds" that replace
 * only the classes they name (replica is slave's alias), with memory units, and Redis's three errors.
 */
final class OutputBufferLimitConfig {
    private OutputBufferLimitConfig() {
    }

    /** The stored value after applying {@code update} to {@code current}, both in CONFIG GET's form. */
    static String merged(String current, String update) {
        String[] parts = update.trim().isEmpty() ? new String[0] : update.trim().split("\\s+");
        if (parts.length % 4 != 0) {
            throw new RedisError("Wrong number of arguments in buffer limit configuration.");
        }
        Map<String, String> classes = parse(current);
        Map<String, String> changes = new LinkedHashMap<>();
        for (int i = 0; i < parts.length; i += 4) {
            String name = parts[i].toLowerCase();
            if (name.equals("replica")) {
                name = "slave";
            }
            if (!classes.containsKey(name)) {
                throw new RedisError("Invalid client class specified in buffer limit configuration.");
            }
            Long hard = Config.parseMemory(parts[i + 1]);
            Long soft = Config.parseMemory(parts[i + 2]);
            Long seconds = seconds(parts[i + 3]);
            if (hard == null || soft == null || seconds == null || hard < 0 || soft < 0 || seconds < 0) {
                throw new RedisError("Error in hard, soft or soft_seconds setting in buffer limit configuration.");
            }
            changes.put(name, hard + " " + soft + " " + seconds);
        }
        classes.putAll(changes); // all or nothing: a bad group leaves every class as it was
        StringBuilder stored = new StringBuilder();
        classes.forEach((name, limits) -> stored.append(stored.isEmpty() ? "" : " ").append(name).append(' ')
                .append(limits));
        return stored.toString();
    }

    private static Map<String, String> parse(String value) {
        Map<String, String> classes = new LinkedHashMap<>();
        String[] parts = value.trim().split("\\s+");
        for (int i = 0; i + 3 < parts.length; i += 4) {
            classes.put(parts[i], parts[i + 1] + " " + parts[i + 2] + " " + parts[i + 3]);
        }
        return classes;
    }

    private static Long seconds(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
