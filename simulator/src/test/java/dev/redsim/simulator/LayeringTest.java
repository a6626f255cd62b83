package dev.redsim.simulator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator's rooms and the one direction of their dependencies (decision 0007), read from the sources:
 * every reference to one of our packages (an import, a static import or a fully qualified name) must point to a
 * lower room, or stay inside its own room without a cycle between packages. A new package has to be given its
 * place here.
 */
class LayeringTest {
    /** Lowest first: a room may use the rooms listed before it, never one listed after it. */
    static final List<String> ROOMS = List.of(
            "error",      // RedisError: Redis's error texts, used everywhere
            "util",       // pure helpers (glob matching, number formatting, scan cursors)
            "intercept",  // the public command interceptor API
            "version",    // what depends on the imitated Redis version
            "protocol",   // RESP decoding and reply writing
            "keyspace",   // databases and typed values
            "server",     // connections: client state, the driver the transport calls
            "net",        // the simulator's own transport on the JDK's NIO (in-process simulators: decision 0049)
            "engine",     // the one thread's state: clients, expiry, blocked clients, pub/sub, config
            "command",    // the command table, per-call context and dispatch (processCommand / call)
            "acl",        // users, their rules and the permission checks, the ACL log and file
            "scripting",  // Lua: EVAL, FUNCTION, the script thread
            "cluster",    // a cluster node's state: the shared topology, its slot check (decision 0015)
            "commands",   // the command implementations, one package per data type
            "",           // dev.redsim.simulator: RedisSimulator and the CLI, which wire the rooms together
            "junit");     // the JUnit 5 extension

    private static final String BASE = "dev.redsim.simulator";
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
    /** Any use of one of our classes by name: import, static import or a qualified name in code. */
    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.redsim\\.simulator((?:\\.[a-z]\\w*)*)\\.[A-Z]");

    /** Package -> the packages of ours it refers to. */
    private static final Map<String, Set<String>> uses = new TreeMap<>();

    @BeforeAll
    static void readSources() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher pkg = PACKAGE.matcher(source);
                if (!pkg.find()) {
                    continue;
                }
                String from = relative(pkg.group(1));
                Set<String> targets = uses.computeIfAbsent(from, p -> new TreeSet<>());
                Matcher ref = REFERENCE.matcher(withoutComments(source));
                while (ref.find()) {
                    String to = ref.group(1).isEmpty() ? "" : ref.group(1).substring(1);
                    if (!to.equals(from)) {
                        targets.add(to);
                    }
                }
            }
        }
        assertThat(uses).as("sources found").isNotEmpty();
    }

    @Test
    void everyPackageHasARoom() {
        for (String pkg : uses.keySet()) {
            assertThat(ROOMS).as("room of package '%s' (add it to LayeringTest.ROOMS)", pkg).contains(room(pkg));
        }
    }

    @Test
    void roomsDependOnlyOnLowerRooms() {
        List<String> violations = new ArrayList<>();
        uses.forEach((from, targets) -> {
            for (String to : targets) {
                if (rank(to) > rank(from)) {
                    violations.add(display(from) + " -> " + display(to));
                }
            }
        });
        assertThat(violations).as("references to a higher room").isEmpty();
    }

    @Test
    void noPackageCycles() {
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            String back = pathBack(start, start, new TreeSet<>());
            if (back != null) {
                cycles.add(display(start) + " -> ... -> " + display(back));
            }
        }
        assertThat(cycles).as("package cycles").isEmpty();
    }

    /** A package of ours that {@code from} reaches and that reaches {@code target}, or null. */
    private static String pathBack(String from, String target, Set<String> seen) {
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (next.equals(target)) {
                return from;
            }
            if (seen.add(next)) {
                String found = pathBack(next, target, seen);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String relative(String pkg) {
        return pkg.equals(BASE) ? "" : pkg.substring(BASE.length() + 1);
    }

    /** A room holds its sub-packages (scripting.lib, commands.lists, ...). */
    private static String room(String pkg) {
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    private static int rank(String pkg) {
        int rank = ROOMS.indexOf(room(pkg));
        return rank < 0 ? Integer.MAX_VALUE : rank;
    }

    private static String display(String pkg) {
        return pkg.isEmpty() ? BASE : pkg;
    }

    private static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
    }
}
