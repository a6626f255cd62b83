package dev.redsim.spring.sample;

import org.springframework.context.ApplicationListener;
import org.springframework.data.redis.core.RedisKeyExpiredEvent;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The people whose entries expired, as Spring Data Redis reports them from Redis's keyspace events. */
@Component
public class ExpiredPeople implements ApplicationListener<RedisKeyExpiredEvent<?>> {
    private final BlockingQueue<String> ids = new LinkedBlockingQueue<>();

    @Override
    public void onApplicationEvent(RedisKeyExpiredEvent<?> event) {
        if ("people".equals(event.getKeyspace())) {
            ids.add(new String(event.getId()));
        }
    }

    /** The next expired id, or null if none comes within the wait (events travel over pub/sub, on another thread). */
    public String next(Duration wait) throws InterruptedException {
        return ids.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void clear() {
        ids.clear();
    }
}
