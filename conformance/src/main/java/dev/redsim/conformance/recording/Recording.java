package dev.redsim.conformance.recording;

import java.util.List;
import java.util.Map;

/**
 * The replies of a reference server to one scenario file under one protocol.
 *
 * @param scenarioFile the scenario file's name, e.g. "strings.txt"
 * @param protocol     2 or 3
 * @param redisVersion the redis_version the reference server reported in INFO when it was recorded
 * @param scenarios    the recorded steps of each scenario, by scenario name, in the file's order
 */
public record Recording(String scenarioFile, int protocol, String redisVersion, Map<String, List<RecordedStep>> scenarios) {
    /** The recording's file name next to its scenario file's: strings.txt under RESP3 is strings.resp3. */
    public static String fileName(String scenarioFile, int protocol) {
        String base = scenarioFile.endsWith(".txt") ? scenarioFile.substring(0, scenarioFile.length() - 4) : scenarioFile;
        return base + ".resp" + protocol;
    }

    public String fileName() {
        return fileName(scenarioFile, protocol);
    }
}
