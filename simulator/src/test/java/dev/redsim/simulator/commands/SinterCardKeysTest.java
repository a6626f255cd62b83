package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class SinterCardKeysTest {
    private static byte[][] args(String... parts) {
        byte[][] out = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parts[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    @Test
    void keysFollowNumkeys() {
        CommandTable table = new CommandTable();
        CommandFamilies.registerAll(table);
        CommandSpec spec = table.lookup("sintercard");
        assertThat(spec.movableKeys()).isTrue();
        assertThat(spec.keyIndexes(args("SINTERCARD", "2", "a", "b", "LIMIT", "1"))).containsExactly(2, 3);
        assertThat(spec.keyIndexes(args("SINTERCARD", "3", "a", "b"))).isEmpty();
        assertThat(spec.keyIndexes(args("SINTERCARD", "x", "a"))).isEmpty();
    }
}
