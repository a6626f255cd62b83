package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Clients in MONITOR mode and what they are fed (replicationFeedMonitors): a status line per command,
 * "+seconds.micros [db address] "arg" ...", on the simulator's clock, each argument quoted as Redis's
 * sdscatrepr quotes it; "lua" for a script's own calls.
 */
public final class Monitors {
    private final Set<ClientConnection> monitors = new LinkedHashSet<>();
    private final TimeSource time;
    private final Engine engine;

    Monitors(TimeSource time, Engine engine) {
        this.time = time;
        this.engine = engine;
    }

    public void add(ClientConnection client) {
        monitors.add(client);
    }

    public void remove(ClientConnection client) {
        monitors.remove(client);
    }

    public boolean isMonitor(ClientConnection client) {
        return monitors.contains(client);
    }

    public boolean active() {
        return !monitors.isEmpty();
    }

    /** Feeds one command, as {@code source} ran it in database {@code db}, to every monitor. */
    public void feed(ClientConnection source, int db, byte[][] args) {
        long micros = time.micros();
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        write(line, String.format("+%d.%06d [%d %s]", micros / 1_000_000, micros % 1_000_000, db,
                source.connection() == null ? "lua" : source.address()));
        for (byte[] arg : args) {
            line.write(' ');
            quote(line, arg);
        }
        write(line, "\r\n");
        byte[] frame = line.toByteArray();
        for (ClientConnection monitor : monitors) {
            monitor.reply().raw(frame);
            engine.markPendingOutput(monitor);
        }
    }

    /** sdscatrepr: printable bytes as they are, \\ and " escaped, the usual control escapes, else \xHH. */
    private static void quote(ByteArrayOutputStream out, byte[] arg) {
        out.write('"');
        for (byte b : arg) {
            int c = b & 0xff;
            switch (c) {
                case '\\' -> write(out, "\\\\");
                case '"' -> write(out, "\\\"");
                case '\n' -> write(out, "\\n");
                case '\r' -> write(out, "\\r");
                case '\t' -> write(out, "\\t");
                case 7 -> write(out, "\\a");
                case '\b' -> write(out, "\\b");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        out.write(c);
                    } else {
                        write(out, String.format("\\x%02x", c));
                    }
                }
            }
        }
        out.write('"');
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }
}
