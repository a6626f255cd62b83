package dev.redsim.simulator.command;

import java.util.List;

/**
 * What COMMAND DOCS reports about a command besides its subcommands: summary, since, group, complexity, doc
 * flags (deprecated, syscmd), deprecated since and replaced by, the history of changes and the arguments.
 * Absent texts are null.
 */
public record CommandDocs(String summary, String since, String group, String complexity, List<String> docFlags,
                          String deprecatedSince, String replacedBy, List<HistoryEntry> history,
                          List<CommandArgument> arguments) {

    /** One change of the command: the version it came with and what changed. */
    public record HistoryEntry(String version, String change) {
    }
}
