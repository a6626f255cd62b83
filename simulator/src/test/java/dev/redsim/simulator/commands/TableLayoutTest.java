package dev.redsim.simulator.commands;

import dev.redsim.simulator.RedisSimulator;
import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandFlag;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.TableLayout;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every simulator of a JVM declares its table from one layout worked out once per catalog (decision 0047), and each
 * keeps entries of its own: their handlers bind per table and their commandstats count per server. A table declared
 * from the layout is the twin of one declared family by family.
 */
class TableLayoutTest {
    @Test
    void tablesShareOneLayoutButKeepTheirOwnEntriesAndBindings() {
        CommandCatalog catalog = CommandCatalog.redis70();
        assertThat(TableLayout.of(catalog, CommandFamilies.declarations()))
                .as("the layout is made once per catalog")
                .isSameAs(TableLayout.of(catalog, CommandFamilies.declarations()));

        CommandTable first = declaredTable();
        CommandTable second = declaredTable();
        assertThat(first.lookup("get")).isNotSameAs(second.lookup("get"));
        assertThat(first.lookupFullName("config|get")).isNotSameAs(second.lookupFullName("config|get"));
        assertThat(first.lookup(bytes("GET"))).isSameAs(first.lookup("get"));
        assertThat(second.lookup(bytes("get"))).isSameAs(second.lookup("get"));

        assertThat(first.lookup("get").handler()).isNotNull();
        assertThat(first.boundFamilies()).containsExactly("StringCommands");
        assertThat(second.boundFamilies()).as("binding in one table binds nothing in another").isEmpty();
        assertThatThrownBy(() -> second.declare("Late", List.of("get"), () -> t -> { }))
                .as("a layout's table takes nothing outside its families").isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyThreadSeesTheSameEntry() throws Exception {
        CommandTable table = declaredTable();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<CommandSpec>> asked = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                asked.add(threads.submit(() -> table.lookup(bytes("hset"))));
            }
            for (java.util.concurrent.Future<CommandSpec> entry : asked) {
                assertThat(entry.get()).isSameAs(table.lookup("hset"));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void twoSimulatorsCountTheirOwnCommandstats() throws IOException {
        try (RedisSimulator counted = RedisSimulator.start(); RedisSimulator other = RedisSimulator.start()) {
            try (Socket socket = new Socket(counted.host(), counted.port())) {
                assertThat(call(socket, "SET k v")).isEqualTo("+OK");
                assertThat(call(socket, "SET k w")).isEqualTo("+OK");
                assertThat(call(socket, "INFO commandstats")).contains("cmdstat_set:calls=2,");
            }
            try (Socket socket = new Socket(other.host(), other.port())) {
                assertThat(call(socket, "GET k")).isEqualTo("$-1");
                String stats = call(socket, "INFO commandstats");
                assertThat(stats).contains("cmdstat_get:calls=1,").doesNotContain("cmdstat_set");
            }
        }
    }

    @Test
    void aTableDeclaredFromTheLayoutIsTheTwinOfOneDeclaredFamilyByFamily() {
        CommandTable byFamily = new CommandTable();
        List<Map.Entry<String, List<String>>> declarations = CommandFamilies.declarations();
        List<dev.redsim.simulator.command.CommandFamily> families = CommandFamilies.all(null, null, new ClusterState());
        for (int i = 0; i < declarations.size(); i++) {
            dev.redsim.simulator.command.CommandFamily family = families.get(i);
            byFamily.declare(declarations.get(i).getKey(), declarations.get(i).getValue(), () -> family);
        }
        CommandTable fromLayout = declaredTable();
        assertThat(describe(fromLayout)).isEqualTo(describe(byFamily)).hasSizeGreaterThan(300);
        for (CommandSpec spec : byFamily.all()) {
            String name = spec.name();
            assertThat(fromLayout.lookup(bytes(name.toUpperCase(Locale.ROOT)))).as(name)
                    .isSameAs(fromLayout.lookup(name));
        }
        assertThat(fromLayout.lookup(bytes("nosuchcommand"))).isNull();
    }

    @Test
    void aLayoutRefusesWhatDeclaringRefuses() {
        CommandCatalog catalog = CommandCatalog.redis70();
        assertThatThrownBy(() -> TableLayout.of(catalog, List.of(Map.entry("Strays", List.of("nosuch")))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'nosuch'");
        assertThatThrownBy(() -> TableLayout.of(catalog,
                List.of(Map.entry("One", List.of("get")), Map.entry("Two", List.of("get")))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("twice");
    }

    private static CommandTable declaredTable() {
        CommandTable table = new CommandTable();
        CommandFamilies.declareAll(table, null, null, new ClusterState());
        return table;
    }

    /** Every entry: full name, arity, flags (as the command path reads them), keys of a sample call, container or not. */
    private static List<String> describe(CommandTable table) {
        List<String> result = new ArrayList<>();
        for (CommandSpec spec : table.all()) {
            result.add(line(spec) + "/" + spec.hasSubcommands());
            for (CommandSpec sub : spec.subcommands().values()) {
                result.add(line(sub));
            }
        }
        return result;
    }

    private static String line(CommandSpec spec) {
        StringBuilder flags = new StringBuilder();
        for (CommandFlag flag : CommandFlag.values()) {
            if (spec.has(flag)) {
                flags.append(flag).append(',');
            }
        }
        byte[][] sample = {bytes(spec.name()), bytes("a"), bytes("b"), bytes("c"), bytes("d")};
        return spec.fullName() + "/" + spec.arity() + "/" + flags + "/"
                + java.util.Arrays.toString(spec.description().keySpecs().isEmpty() ? new int[0] : spec.keyIndexes(sample));
    }

    /** One call on a raw socket: a status or error line, or a bulk's payload ("$-1" for nil). */
    private static String call(Socket socket, String inline) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        DataInputStream in = new DataInputStream(socket.getInputStream());
        String line = readLine(in);
        if (!line.startsWith("$") || line.equals("$-1")) {
            return line;
        }
        byte[] payload = new byte[Integer.parseInt(line.substring(1))];
        in.readFully(payload);
        readLine(in);
        return new String(payload, StandardCharsets.UTF_8);
    }

    private static String readLine(DataInputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\r'; c = in.read()) {
            line.append((char) c);
        }
        in.read(); // '\n'
        return line.toString();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
