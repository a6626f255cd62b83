package dev.redsim.simulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The build's training run for the command line's class-data archive (decision 0021): the launcher
 * (bin/redsim-server) starts the JVM with the archive that the package phase writes while this runs, so the classes
 * a launch loads up to its first replies come mapped from the archive, already parsed and verified, lambda classes
 * included, instead of from the jar. It runs {@link SimulatorMain} as a launch does, sends the commands a client's
 * first seconds send, then SHUTDOWN, whose exit writes the archive.
 */
final class ClassDataTraining {
    private ClassDataTraining() {
    }

    public static void main(String[] args) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Thread client = new Thread(() -> talk(port), "training-client");
        client.setDaemon(true);
        client.start();
        SimulatorMain.main(new String[] {"--port", Integer.toString(port)}); // exits at the client's SHUTDOWN
    }

    private static void talk(int port) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                String[][] calls = {{"PING"}, {"HELLO", "3"}, {"HELLO", "2"}, {"CLIENT", "SETNAME", "training"},
                        {"SET", "k", "v"}, {"GET", "k"}, {"INCR", "n"}, {"MSET", "a", "1", "b", "2"}, {"MGET", "a", "b"},
                        {"EXPIRE", "k", "100"}, {"TTL", "k"}, {"DEL", "a"}, {"EXISTS", "b"}, {"LPUSH", "l", "x"},
                        {"RPUSH", "l", "y"}, {"LRANGE", "l", "0", "-1"}, {"LPOP", "l"}, {"RPOP", "l"},
                        {"HSET", "h", "f", "v"}, {"HGET", "h", "f"}, {"HGETALL", "h"}, {"SADD", "s", "m"},
                        {"SMEMBERS", "s"}, {"SPOP", "s"}, {"ZADD", "z", "1", "m"}, {"ZRANGE", "z", "0", "-1"},
                        {"ZPOPMIN", "z"}, {"SCAN", "0"}, {"TYPE", "b"}, {"INFO"}, {"CONFIG", "GET", "maxmemory"},
                        {"MULTI"}, {"INCR", "n"}, {"EXEC"}, {"FLUSHALL"}, {"SHUTDOWN", "NOSAVE"}};
                for (String[] call : calls) {
                    out.write(resp(call));
                    out.flush();
                    if (!call[0].equals("SHUTDOWN") && in.read(new byte[65536]) < 0) {
                        return;
                    }
                }
                return;
            } catch (IOException notListeningYet) {
                Thread.onSpinWait();
            }
        }
    }

    private static byte[] resp(String[] call) {
        StringBuilder text = new StringBuilder("*").append(call.length).append("\r\n");
        for (String arg : call) {
            text.append('$').append(arg.length()).append("\r\n").append(arg).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
