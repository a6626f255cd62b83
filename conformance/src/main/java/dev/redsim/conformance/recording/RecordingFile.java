package dev.redsim.conformance.recording;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Recording} as a text file that reads like its scenario file with the replies filled in:
 *
 * <pre>
 * # comment lines (what this is, how to re-record it)
 * redis_version: 7.0.15
 * protocol: RESP2
 *
 * ### SET with NX and GET
 * SET k v NX GET
 *   $-1
 * GET k
 *   $1
 *   v
 * &#64;ignore CLIENT ID
 * </pre>
 *
 * Each step is one unindented line ({@link dev.redsim.conformance.scenario.StepText}); its reply, if it has a
 * compared one, follows indented by two spaces in {@link RespText}'s form.
 */
public final class RecordingFile {
    private static final String REPLY_INDENT = "  ";

    private RecordingFile() {
    }

    /** The file's text; {@code howToRecord} goes into its header comment. */
    public static String write(Recording recording, String howToRecord) {
        StringBuilder out = new StringBuilder();
        out.append("# The replies of Redis ").append(recording.redisVersion()).append(" to scenarios/")
                .append(recording.scenarioFile()).append(" under RESP").append(recording.protocol()).append(".\n");
        out.append("# Under each step its reply, the RESP bytes line by line: \\r \\n \\\\ and bytes outside printable ASCII\n");
        out.append("# escaped, aggregate elements indented. @sort replies are kept sorted, @ignore steps keep no reply.\n");
        out.append("# Generated, not edited by hand: ").append(howToRecord).append('\n');
        out.append("redis_version: ").append(recording.redisVersion()).append('\n');
        out.append("protocol: RESP").append(recording.protocol()).append('\n');
        recording.scenarios().forEach((name, steps) -> {
            out.append("\n### ").append(name).append('\n');
            for (RecordedStep step : steps) {
                out.append(step.text()).append('\n');
                if (step.reply() != null) {
                    RespText.write(step.reply(), REPLY_INDENT, out);
                }
            }
        });
        return out.toString();
    }

    /** Reads a recording's text; {@code source} names it in errors. */
    public static Recording parse(String source, String scenarioFile, String text) {
        RespText.Lines lines = new RespText.Lines(source, text);
        String version = null;
        Integer protocol = null;
        Map<String, List<RecordedStep>> scenarios = new LinkedHashMap<>();
        List<RecordedStep> steps = null;
        while (lines.hasNext()) {
            String line = lines.peek();
            if (line.startsWith(REPLY_INDENT)) {
                throw lines.error("a reply without its step");
            }
            lines.skip();
            if (line.startsWith("### ")) {
                String name = line.substring(4);
                steps = new ArrayList<>();
                if (scenarios.put(name, steps) != null) {
                    throw lines.error("scenario '" + name + "' recorded twice");
                }
            } else if (line.isEmpty() || (steps == null && line.startsWith("#"))) {
                continue;
            } else if (steps == null) {
                int colon = line.indexOf(": ");
                String key = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 2);
                switch (key) {
                    case "redis_version" -> version = value;
                    case "protocol" -> protocol = protocol(lines, value);
                    default -> throw lines.error("unknown header line: " + line);
                }
            } else {
                boolean hasReply = lines.hasNext() && lines.peek().startsWith(REPLY_INDENT);
                steps.add(new RecordedStep(line, hasReply ? RespText.read(lines, REPLY_INDENT) : null));
            }
        }
        if (version == null || protocol == null) {
            throw lines.error("the header lacks redis_version or protocol");
        }
        return new Recording(scenarioFile, protocol, version, scenarios);
    }

    private static int protocol(RespText.Lines lines, String value) {
        if (!value.equals("RESP2") && !value.equals("RESP3")) {
            throw lines.error("protocol must be RESP2 or RESP3: " + value);
        }
        return value.charAt(4) - '0';
    }
}
