package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Counts the job.finish events of a feed. To read "everything published so far" without waiting on a timer, it
 * also subscribes to a marker channel and publishes a marker: Redis delivers a connection's messages in
 * publish order, so once the marker arrives every earlier event has.
 */
public final class FinishEvents implements AutoCloseable {
    private final RespClient subscriber;
    private final RespClient publisher;
    private final String channel;
    private final String marker = "thoonk-suite-marker:" + UUID.randomUUID();

    public FinishEvents(RedisTarget target, String feed) {
        this.channel = "job.finish:" + feed;
        this.subscriber = new RespClient(target.host(), target.port());
        this.publisher = new RespClient(target.host(), target.port());
        subscriber.setTimeoutMillis(10_000); // a missing marker fails the check instead of hanging it
        subscriber.send(bytes("SUBSCRIBE"), bytes(channel), bytes(marker));
        subscriber.read();
        subscriber.read();
    }

    /** The payloads ("id\0result") published since the last drain, in order. */
    public List<String> drain() {
        publisher.call("PUBLISH", marker, "x");
        List<String> events = new ArrayList<>();
        while (true) {
            RespValue message = subscriber.read();
            String from = message.children().get(1).text();
            if (from.equals(marker)) {
                return events;
            }
            events.add(message.children().get(2).text());
        }
    }

    @Override
    public void close() {
        subscriber.close();
        publisher.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
