package dev.redsim.simulator;

import dev.redsim.simulator.error.RedisError;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The listening sockets (Redis's ipfd): one per address of the bind parameter, on the port parameter, rebound when
 * CONFIG SET changes either, as Redis 7.0 rebinds. A new port is bound before the old sockets close (a port that
 * cannot be had leaves everything as it was); a new bind closes the old sockets first and takes them back when
 * the new addresses cannot all be had. Port 0 (set at run time) and an empty bind listen nowhere; the connected
 * clients stay. The sockets themselves are the transport's ({@link ListeningSockets}).
 */
final class Listeners {
    /** Redis's tcp-backlog default. */
    static final int BACKLOG = 511;

    /** The transport's sockets. */
    private final ListeningSockets sockets;
    private List<ListeningSockets.Listening> channels = List.of();
    private List<String> addresses = List.of();
    private volatile int port;

    Listeners(ListeningSockets sockets) {
        this.sockets = sockets;
    }

    /** Redis's bind value as addresses: blank-separated, "-" marking an address whose absence is no error. */
    static List<String> addresses(String bind) {
        return bind.isBlank() ? List.of() : Arrays.asList(bind.trim().split("\\s+"));
    }

    /** At start: listens on every address; port 0 takes a free port (the same for every address). */
    void start(List<String> bindAddresses, int requestedPort) throws Exception {
        // Bound and listening once open returns; the registration that starts the accepting is not awaited: it
        // runs on the loop before anything a client sends, and a later close or change waits for it (decision 0042)
        BindResult result = open(bindAddresses, requestedPort);
        if (result.failure != null) {
            throw result.failure;
        }
        install(result, bindAddresses);
    }

    /** The port listened on (the parameter's value; at start, the free port taken for port 0). */
    int port() {
        return port;
    }

    /** The first address listened on, as a client reaches it ("*" as 127.0.0.1, "::*" as ::1), or null. */
    String reachableHost() {
        for (String address : addresses) {
            String bare = address.startsWith("-") ? address.substring(1) : address;
            return switch (bare) {
                case "*" -> "127.0.0.1";
                case "::*" -> "::1";
                default -> bare;
            };
        }
        return null;
    }

    /** CONFIG SET port (changeListenPort): the new port first, then the old sockets go. */
    void changePort(int newPort) {
        if (newPort == port && !channels.isEmpty()) {
            return;
        }
        if (newPort == 0) {
            sockets.closeAll(channels);
            channels = List.of();
            port = 0;
            return;
        }
        BindResult result = open(addresses, newPort);
        if (result.failure != null) {
            throw new RedisError("Unable to listen on this port. Check server logs.");
        }
        sockets.closeAll(channels);
        install(result, addresses);
    }

    /** CONFIG SET bind (changeBindAddr): the old sockets go first, and come back if the new addresses fail. */
    void changeBind(List<String> newAddresses) {
        if (newAddresses.equals(addresses)) {
            return;
        }
        sockets.closeAll(channels);
        channels = List.of();
        if (port == 0) {
            addresses = newAddresses;
            return;
        }
        BindResult result = open(newAddresses, port);
        if (result.failure == null) {
            install(result, newAddresses);
            return;
        }
        BindResult restored = open(addresses, port);
        if (restored.failure != null) {
            throw new IllegalStateException("cannot listen again on " + addresses + ":" + port, restored.failure);
        }
        install(restored, addresses);
        throw new RedisError("Failed to bind to specified addresses.");
    }

    /** Listens again on the addresses and port it had before {@link #close()} (a restarted process). */
    void reopen() {
        BindResult result = open(addresses, port);
        if (result.failure != null) {
            throw new IllegalStateException("cannot listen again on " + addresses + ":" + port, result.failure);
        }
        install(result, addresses);
    }

    void close() {
        sockets.closeAll(channels);
        channels = List.of();
    }

    private record BindResult(List<ListeningSockets.Listening> channels, int port, Exception failure) {
    }

    private BindResult open(List<String> bindAddresses, int requestedPort) {
        List<ListeningSockets.Listening> opened = new ArrayList<>();
        int actualPort = requestedPort;
        for (String address : bindAddresses) {
            boolean optional = address.startsWith("-");
            String bare = optional ? address.substring(1) : address;
            try {
                ListeningSockets.Listening listening = sockets.listen(socketAddress(bare, actualPort));
                opened.add(listening);
                actualPort = listening.port();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sockets.closeAll(opened);
                return new BindResult(List.of(), 0, e);
            } catch (Exception e) { // the bind's IOException
                if (!optional) {
                    sockets.closeAll(opened);
                    return new BindResult(List.of(), 0, e);
                }
                // an optional address that cannot be had here (no IPv6, or the IPv4 wildcard's socket covers it)
            }
        }
        return new BindResult(opened, actualPort, null);
    }

    private void install(BindResult result, List<String> bindAddresses) {
        channels = result.channels;
        addresses = bindAddresses;
        port = result.port;
    }

    private static InetSocketAddress socketAddress(String address, int port) {
        return switch (address) {
            case "*" -> new InetSocketAddress("0.0.0.0", port);
            case "::*" -> new InetSocketAddress("::", port);
            default -> new InetSocketAddress(address, port);
        };
    }
}
