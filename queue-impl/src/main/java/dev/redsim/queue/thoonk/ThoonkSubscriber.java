package dev.redsim.queue.thoonk;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * Listens to the thoonk channels of some feeds (plus newfeed/delfeed/conffeed) on its own connection and thread,
 * handing each message to a listener as a typed event. {@link #awaitSubscribed()} returns once Redis confirmed
 * every subscription, so nothing published afterwards is missed.
 */
public final class ThoonkSubscriber implements AutoCloseable {
    private final Jedis jedis;
    private final CountDownLatch subscribed;
    private final Thread thread;
    private final JedisPubSub pubSub;

    public ThoonkSubscriber(HostAndPort address, List<String> feeds, Consumer<ThoonkEvent> listener) {
        this.jedis = new Jedis(address);
        List<String> channels = new ArrayList<>(List.of(ThoonkKeys.NEWFEED, ThoonkKeys.DELFEED, ThoonkKeys.CONFFEED));
        for (String feed : feeds) {
            ThoonkKeys keys = new ThoonkKeys(feed);
            channels.addAll(List.of(keys.publishChannel(), keys.editChannel(), keys.retractChannel(),
                keys.positionChannel(), keys.finishChannel()));
        }
        this.subscribed = new CountDownLatch(channels.size());
        this.pubSub = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                ThoonkEvent event = ThoonkEventParser.parse(channel, message);
                if (event != null) {
                    listener.accept(event);
                }
            }

            @Override
            public void onSubscribe(String channel, int count) {
                subscribed.countDown();
            }
        };
        this.thread = new Thread(() -> jedis.subscribe(pubSub, channels.toArray(String[]::new)), "thoonk-subscriber");
        thread.setDaemon(true);
        thread.start();
    }

    public void awaitSubscribed() throws InterruptedException {
        subscribed.await();
    }

    @Override
    public void close() {
        if (pubSub.isSubscribed()) {
            pubSub.unsubscribe();
        }
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        jedis.close();
    }
}
