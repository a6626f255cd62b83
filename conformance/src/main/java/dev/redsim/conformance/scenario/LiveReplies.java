package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.BlockedClientsProbe;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A live target as one side of a scenario run: emptied first, then one connection per scenario client, opened
 * when the client's first step comes (connection order shows in CLIENT ID and CLIENT LIST), switched to RESP3
 * with HELLO 3 when the run is under RESP3.
 */
public final class LiveReplies implements ReplySource {
    private static final Duration BLOCKED_WAIT = Duration.ofSeconds(5);

    private final RedisTarget target;
    private final int protocol;
    private final Map<Integer, RespClient> clients = new HashMap<>();

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
        client(step).send(step.args());
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
        return clients.computeIfAbsent(step.client(), c -> {
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
