package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A live target as one side of a scenario run: emptied first, then one connection per scenario client, opened
 * when the client's first step comes (connection order shows in CLIENT ID and CLIENT LIST), switched to RESP3
 * with HELLO 3 when the run is under RESP3.
 */
public final class LiveReplies implements ReplySource {
    private static final Duration BLOCKED_WAIT = Duration.ofSeconds(5);

    private final RedisTarget target;
    private final int protocol;
    private static final Pattern CLIENT_ID = Pattern.compile("\\{c(\\d+)\\.id}");

    private final Map<Integer, RespClient> clients = new HashMap<>();
    private final Map<Integer, Long> ids = new HashMap<>();

    public LiveReplies(RedisTarget target, int protocol) {
        this.target = target;
        this.protocol = protocol;
        reset(target);
    }

    @Override
    public String name() {
        return target.name();
    }

    @Override
    public void send(Step step) {
        RespClient client = client(step);
        client.send(withClientIds(step.args()));
    }

    /**
     * An argument written {@code {cN.id}} stands for the CLIENT ID of scenario client N on this server (ids differ
     * from server to server: CLIENT TRACKING ... REDIRECT {c2.id}). The id is asked on client N's connection the
     * first time it is needed, so client N must have no unread push or reply then.
     */
    private byte[][] withClientIds(byte[][] args) {
        byte[][] resolved = args;
        for (int i = 0; i < args.length; i++) {
            Matcher m = CLIENT_ID.matcher(new String(args[i], StandardCharsets.ISO_8859_1));
            if (m.matches()) {
                if (resolved == args) {
                    resolved = args.clone();
                }
                int n = Integer.parseInt(m.group(1));
                long id = ids.computeIfAbsent(n, c -> client(c).call("CLIENT", "ID").asLong());
                resolved[i] = Long.toString(id).getBytes(StandardCharsets.US_ASCII);
            }
        }
        return resolved;
    }

    @Override
    public RespValue receive(Step step) {
        return client(step).read();
    }

    @Override
    public boolean awaitBlocked(Step step, long count) {
        client(step); // as a command would, the step's client connects first
        return awaitBlocked(target, count);
    }

    private RespClient client(Step step) {
        return client(step.client());
    }

    private RespClient client(int number) {
        return clients.computeIfAbsent(number, c -> {
            RespClient client = new RespClient(target.host(), target.port());
            if (protocol == 3) {
                client.call("HELLO", "3");
            }
            return client;
        });
    }

    /** Waits (for at most 5 seconds) until the target reports {@code count} blocked clients. */
    private static boolean awaitBlocked(RedisTarget target, long count) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            return BlockedClientsProbe.await(admin, count, BLOCKED_WAIT);
        }
    }

    private static void reset(RedisTarget target) {
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            admin.call("FLUSHALL");
            admin.call("FUNCTION", "FLUSH", "SYNC"); // libraries survive FLUSHALL
        }
        awaitBlocked(target, 0); // clients of the previous scenario may still be closing
    }

    @Override
    public void close() {
        clients.values().forEach(RespClient::close);
    }
}
