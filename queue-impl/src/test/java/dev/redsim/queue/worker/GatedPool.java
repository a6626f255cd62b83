package dev.redsim.queue.worker;

import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JedisPool whose first subscriber is held at the one moment a concurrent stop could spoil its connection: Jedis
 * has taken the connection (another thread may now unsubscribe) but has not sent SUBSCRIBE yet. The hold is in
 * {@code setTimeoutInfinite}, which Jedis calls exactly there. The pool also counts the UNSUBSCRIBEs sent, so a
 * test knows when a stop has spoken to the held subscriber.
 */
public final class GatedPool implements AutoCloseable {
    private final HostAndPort server;
    private final AtomicBoolean armed = new AtomicBoolean(true);
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicInteger unsubscribes = new AtomicInteger();
    private final JedisPool pool;

    public GatedPool(String host, int port) {
        this.server = new HostAndPort(host, port);
        this.pool = new JedisPool(new Factory());
    }

    public JedisPool pool() {
        return pool;
    }

    /** Waits until a subscriber is held at the gate. */
    public boolean awaitHeld() throws InterruptedException {
        return held.await(30, TimeUnit.SECONDS);
    }

    public int unsubscribesSent() {
        return unsubscribes.get();
    }

    public void open() {
        open.countDown();
    }

    /** PING on every connection the pool would lend now (borrowed together, so each one is asked). */
    public List<String> pingEveryIdleConnection() {
        List<Jedis> borrowed = new ArrayList<>();
        List<String> answers = new ArrayList<>();
        try {
            for (int i = pool.getNumIdle(); i > 0; i--) {
                Jedis jedis = pool.getResource();
                borrowed.add(jedis);
                try {
                    answers.add(jedis.ping());
                } catch (RuntimeException e) {
                    answers.add(e.toString());
                }
            }
        } finally {
            borrowed.forEach(Jedis::close);
        }
        return answers;
    }

    @Override
    public void close() {
        open();
        pool.close();
    }

    private final class GatedConnection extends Connection {
        GatedConnection(HostAndPort server) {
            super(server);
        }

        @Override
        public void setTimeoutInfinite() {
            if (armed.compareAndSet(true, false)) {
                held.countDown();
                try {
                    open.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.setTimeoutInfinite();
        }

        @Override
        public void sendCommand(CommandArguments args) {
            if (args.getCommand() == Protocol.Command.UNSUBSCRIBE) {
                unsubscribes.incrementAndGet();
            }
            super.sendCommand(args);
        }
    }

    private final class Factory extends BasePooledObjectFactory<Jedis> {
        @Override
        public Jedis create() {
            return new Jedis(new GatedConnection(server));
        }

        @Override
        public PooledObject<Jedis> wrap(Jedis jedis) {
            return new DefaultPooledObject<>(jedis);
        }

        @Override
        public void destroyObject(PooledObject<Jedis> p) {
            p.getObject().getConnection().close();
        }
    }
}
