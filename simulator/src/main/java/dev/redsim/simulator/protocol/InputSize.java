package dev.redsim.simulator.protocol;

/**
 * How many bytes a decoded message took on the wire as a multibulk request: what it held of a client's query buffer
 * in Redis while it waited there (a blocked or paused client's commands), for client-query-buffer-limit.
 */
public final class InputSize {
    private InputSize() {
    }

    /** A command's bytes (byte[][] or {@link ChunkedCommand}); 0 for anything else (a protocol error, null). */
    public static long of(Object message) {
        if (message instanceof byte[][] args) {
            return of(args, null);
        }
        if (message instanceof ChunkedCommand command) {
            return of(command.args(), command);
        }
        return 0;
    }

    /** "*n\r\n" and "$len\r\n...\r\n" per argument; an argument still in chunks is as long as they are. */
    private static long of(byte[][] args, ChunkedCommand chunked) {
        long bytes = 3 + digits(args.length);
        for (int i = 0; i < args.length; i++) {
            long length = args[i] != null ? args[i].length : chunked.value(i).length();
            bytes += 5 + digits(length) + length;
        }
        return bytes;
    }

    private static int digits(long n) {
        int digits = 1;
        while (n >= 10) {
            n /= 10;
            digits++;
        }
        return digits;
    }
}
