package dev.redsim.conformance;

import dev.redsim.simulator.command.CommandDescription;
import dev.redsim.conformance.differential.Family;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioFile;
import dev.redsim.conformance.scenario.Step;
import dev.redsim.conformance.target.Targets;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.commands.CommandFamilies;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/commands.md is generated from the command table and from the scenario files (which commands are
 * compared with real Redis). A local run rewrites it; a CI run fails when the committed file is stale.
 */
class CommandsDocTest {
    private static final Path DOC = Path.of("..", "docs", "commands.md");

    @Test
    void commandsDocMatchesTheCommandTable() throws IOException, URISyntaxException {
        String generated = generate();
        if (Targets.realRedisRequired()) {
            assertThat(Files.exists(DOC) ? Files.readString(DOC) : "")
                    .as("docs/commands.md is stale: run the tests locally and commit it").isEqualTo(generated);
        } else {
            Files.writeString(DOC, generated, StandardCharsets.UTF_8);
        }
    }

    static String generate() throws URISyntaxException {
        CommandTable table = new CommandTable();
        CommandFamilies.registerAll(table);
        Set<String> compared = comparedCommands();
        Set<String> generated = Family.MIXED.commandNames();
        TreeMap<String, List<String>> byGroup = new TreeMap<>();
        int total = 0;
        int covered = 0;
        for (CommandSpec spec : table.all()) {
            List<CommandSpec> entries = new ArrayList<>();
            if (spec.hasSubcommands()) {
                entries.addAll(spec.subcommands().values());
            } else {
                entries.add(spec);
            }
            for (CommandSpec entry : entries) {
                String name = entry.fullName().replace('|', ' ').toUpperCase();
                boolean isCompared = compared.contains(name);
                total++;
                covered += isCompared ? 1 : 0;
                String flags = String.join(" ", entry.description().flagNames());
                byGroup.computeIfAbsent(spec.group(), g -> new ArrayList<>()).add(String.format("| %s | %s | %d | %s | %s | %s |",
                        name, entry.summary().strip().replace("|", "\\|"), entry.arity(), flags,
                        isCompared ? "yes" : "no", generated.contains(name) ? "yes" : "no"));
            }
        }
        StringBuilder md = new StringBuilder();
        md.append("# Commands\n\n");
        md.append("Generated from the simulator's command table and the conformance scenario files by CommandsDocTest; ")
                .append("do not edit by hand. Summaries, arities and flags are redis-server ")
                .append(table.catalog().redisVersion()).append("'s own (see docs/command-table.md).\n\n");
        md.append(String.format("%d commands and subcommands; %d of them are compared with a real redis-server, ", total, covered))
                .append("byte for byte under RESP2 and RESP3, by the scenario files in ")
                .append("conformance/src/test/resources/scenarios (column scenarios); the differential column says whether ")
                .append("the generated histories of the differential engine (conformance/.../differential/Family.java) use it.\n");
        byGroup.forEach((group, rows) -> {
            md.append("\n## ").append(group).append("\n\n");
            md.append("| command | summary | arity | flags | scenarios | differential |\n|---|---|---|---|---|---|\n");
            rows.forEach(r -> md.append(r).append('\n'));
        });
        appendMissing(md, table);
        return md.toString();
    }

    /** The commands and subcommands redis-server reports that the simulator does not implement yet. */
    private static void appendMissing(StringBuilder md, CommandTable table) {
        Map<String, List<String>> byGroup = new TreeMap<>();
        int missing = 0;
        for (CommandDescription command : table.catalog().all()) {
            List<CommandDescription> entries = command.subcommands().isEmpty()
                    ? List.of(command) : new ArrayList<>(command.subcommands().values());
            for (CommandDescription entry : entries) {
                if (table.lookupFullName(entry.fullName()) != null) {
                    continue;
                }
                missing++;
                byGroup.computeIfAbsent(entry.docs().group(), g -> new ArrayList<>()).add(String.format("| %s | %s |",
                        entry.fullName().replace('|', ' ').toUpperCase(), entry.docs().summary().strip().replace("|", "\\|")));
            }
        }
        md.append("\n# Not implemented yet\n\n").append(missing).append(" commands and subcommands of redis-server ")
                .append(table.catalog().redisVersion()).append(" answer \"unknown command\" here (and, from a script, ")
                .append("\"Unknown Redis command called from script\", or Redis's own refusal when it forbids them in ")
                .append("scripts).\n");
        byGroup.forEach((group, rows) -> {
            md.append("\n## ").append(group).append(" (not implemented)\n\n| command | summary |\n|---|---|\n");
            rows.forEach(r -> md.append(r).append('\n'));
        });
    }

    /** Command names (and "CONTAINER SUB" names) that some scenario step sends. */
    private static Set<String> comparedCommands() throws URISyntaxException {
        File dir = new File(CommandsDocTest.class.getClassLoader().getResource("scenarios").toURI());
        Set<String> names = new HashSet<>();
        for (File file : dir.listFiles((d, n) -> n.endsWith(".txt"))) {
            for (Scenario scenario : ScenarioFile.load("scenarios/" + file.getName())) {
                for (Step step : scenario.steps()) {
                    if (step.args().length == 0) {
                        continue; // a @recv step sends nothing
                    }
                    String first = new String(step.args()[0], StandardCharsets.UTF_8).toUpperCase();
                    names.add(first);
                    if (step.args().length > 1) {
                        names.add(first + " " + new String(step.args()[1], StandardCharsets.UTF_8).toUpperCase());
                    }
                }
            }
        }
        return names;
    }
}
