package dev.redsim.simulator.acl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The aclfile (ACL LOAD, ACL SAVE, and the users read at start): one "user name rules..." line per user, rules
 * separated by single spaces. Redis's checks and messages, which name the file as configured; a relative path is
 * read from the server's dir, as redis-server runs from there.
 */
final class AclFile {
    private final String configured;
    private final Path path;

    AclFile(String configured, String dir) {
        this.configured = configured;
        Path given = Path.of(configured);
        this.path = given.isAbsolute() || dir == null || dir.isEmpty() ? given : Path.of(dir).resolve(given);
    }

    /**
     * Reads every user of the file into {@code users} (made with {@code newUser}), or returns Redis's messages,
     * one after the other, when some line is wrong (then nothing may be used).
     */
    String read(Map<String, AclUser> users, Function<String, AclUser> newUser) {
        byte[] content;
        try {
            content = Files.readAllBytes(path);
        } catch (IOException e) {
            return "Error loading ACLs, opening file '" + configured + "': " + reason(e);
        }
        StringBuilder errors = new StringBuilder();
        String[] lines = Acl.latin1(content).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNumber = i + 1;
            String line = trim(lines[i], " \t\r\n");
            if (line.isEmpty()) {
                continue;
            }
            String[] argv = line.split(" ", -1);
            if (!argv[0].equals("user") || argv.length < 2) {
                errors.append(configured).append(':').append(lineNumber)
                        .append(" should start with user keyword followed by the username. ");
                continue;
            }
            String name = argv[1];
            if (Selector.hasSpaces(name)) {
                errors.append('\'').append(configured).append(':').append(lineNumber).append(": username '")
                        .append(name).append("' contains invalid characters. ");
                continue;
            }
            if (users.containsKey(name)) {
                errors.append("WARNING: Duplicate user '").append(name).append("' found on line ")
                        .append(lineNumber).append(". ");
                continue;
            }
            AclUser user = newUser.apply(name);
            users.put(name, user);
            List<String> rules = new ArrayList<>();
            for (int j = 2; j < argv.length; j++) {
                rules.add(argv[j]);
            }
            List<String> merged = SelectorArguments.merge(rules);
            if (merged == null) {
                // Redis 7.0.15 goes on with no rules when the parenthesis opens first, and crashes otherwise
                errors.append(configured).append(':').append(lineNumber)
                        .append(": Unmatched parenthesis in selector definition.");
                merged = List.of();
            }
            for (String rule : merged) {
                try {
                    user.apply(trim(rule, "\t\r\n"));
                } catch (AclRuleError e) {
                    errors.append(configured).append(':').append(lineNumber).append(": ");
                    if (e.reason == AclRuleError.Reason.UNKNOWN_COMMAND) {
                        errors.append("Error in applying operation '").append(rule).append("': ");
                    }
                    errors.append(e.getMessage()).append(". ");
                }
            }
            user.refresh();
        }
        if (errors.isEmpty()) {
            return null;
        }
        return errors.append("WARNING: ACL errors detected, no change to the previously active ACL rules was ")
                .append("performed").toString();
    }

    /** Writes the file whole: to a temporary file first, then renamed over it. False when that fails. */
    boolean write(String text) {
        Path temp = path.resolveSibling(path.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                + System.currentTimeMillis());
        try {
            Files.write(temp, text.getBytes(StandardCharsets.ISO_8859_1));
            Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return true;
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // nothing more to undo
            }
            return false;
        }
    }

    /** strerror's words for what the JVM reports. */
    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        return String.valueOf(e.getMessage());
    }

    /** sdstrim: the given characters removed from both ends. */
    static String trim(String s, String chars) {
        int start = 0;
        int end = s.length();
        while (start < end && chars.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }
}
