package dev.redsim.queue.thoonk;

import dev.redsim.conformance.target.RedisTarget;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ThoonkSubscriber} that records events. {@link #upToNow()} configures a marker feed and returns what
 * came before its conffeed event: Redis delivers in publish order, so no timer decides when "everything" arrived.
 */
final class EventRecorder implements AutoCloseable {
    private final BlockingQueue<ThoonkEvent> received = new LinkedBlockingQueue<>();
    private final ThoonkSubscriber subscriber;
    private final Feeds marker;
    private final String markerFeed = "marker-" + UUID.randomUUID();

    EventRecorder(RedisTarget target, Jedis jedis, List<String> feeds) throws InterruptedException {
        this.subscriber = new ThoonkSubscriber(new HostAndPort(target.host(), target.port()), feeds, received::add);
        subscriber.awaitSubscribed();
        this.marker = new Feeds(jedis, "marker");
    }

    List<ThoonkEvent> upToNow() throws InterruptedException {
        marker.setConfig(markerFeed, "mark", "1");
        List<ThoonkEvent> events = new ArrayList<>();
        while (true) {
            ThoonkEvent event = received.poll(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
            if (event == null) {
                throw new AssertionError("the marker event never came; so far " + events);
            }
            if (event instanceof ThoonkEvent.FeedConfigured c && c.feed().equals(markerFeed)) {
                return events;
            }
            events.add(event);
        }
    }

    @Override
    public void close() {
        subscriber.close();
        marker.delete(markerFeed);
    }
}
