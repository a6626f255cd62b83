package dev.redsim.conformance.replication;

import dev.redsim.simulator.protocol.InlineSplitter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A write history for the replication stream comparison: commands in redis-cli quoting, each run by the main
 * client, or ("&" first) sent by a client of its own that blocks, the next step waiting until the server reports
 * it blocked. "@random-members" marks a history whose SREMs name members the server chose at random (SPOP).
 */
public record StreamHistory(String name, List<Step> steps, boolean randomMembers) {

    /** One command; {@code blocks}: sent on a new client, which the server must report blocked before going on. */
    public record Step(byte[][] args, boolean blocks) {
        String text() {
            StringBuilder sb = new StringBuilder();
            for (byte[] arg : args) {
                sb.append(sb.length() == 0 ? "" : " ").append(new String(arg, StandardCharsets.UTF_8));
            }
            return (blocks ? "& " : "") + sb;
        }
    }

    public static StreamHistory of(String name, String... lines) {
        List<Step> steps = new ArrayList<>();
        boolean random = false;
        for (String line : lines) {
            if (line.equals("@random-members")) {
                random = true;
                continue;
            }
            boolean blocks = line.startsWith("& ");
            String command = blocks ? line.substring(2) : line;
            byte[][] args = InlineSplitter.split(command.getBytes(StandardCharsets.UTF_8));
            if (args == null || args.length == 0) {
                throw new IllegalArgumentException("cannot split: " + line);
            }
            steps.add(new Step(args, blocks));
        }
        return new StreamHistory(name, List.copyOf(steps), random);
    }

    @Override
    public String toString() {
        return name;
    }
}
