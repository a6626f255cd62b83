package dev.redsim.simulator.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The build's step that writes the compact command table ({@link CompactCatalog}) from commands.json, in the
 * simulator module's process-classes phase (simulator/pom.xml), so the compact form is never edited or committed:
 * it is always the JSON's.
 *
 *   java dev.redsim.simulator.command.CompactCatalogWriter path/to/commands.json path/to/commands.bin
 */
public final class CompactCatalogWriter {
    private CompactCatalogWriter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: CompactCatalogWriter commands.json commands.bin");
        }
        String json = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        CommandCatalog catalog = CommandCatalog.fromJson(json);
        Files.write(Path.of(args[1]), CompactCatalog.write(catalog.redisVersion(), catalog.all()));
    }
}
