package dev.redsim.queue.rescue;

import dev.redsim.queue.script.LuaScript;
import dev.redsim.queue.time.RedisClock;
import dev.redsim.queue.time.ServerTime;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.resps.Tuple;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * rescue's create, search, extend, delete, expire and ticker as Lua scripts (resources/rescue/scripts; tasks.lua is
 * the store: the same hash and index layout as {@link TaskStore}), each one script call, no WATCH, time from Redis's
 * TIME when the clock is a RedisClock. The ticker's new ticks come from {@link Cron} here, not from a second calendar
 * in Lua: see {@link #ticker()} and decision 0039.
 */
final class RescueScripts {
    /** Days <-> civil date, shared with the other contract that writes timestamps. */
    private static final String CIVIL = "/script/civil.lua";
    private static final String DIR = "/rescue/scripts/";
    static final LuaScript CREATE = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "create.lua");
    static final LuaScript SEARCH = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "search.lua");
    static final LuaScript EXTEND = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "extend.lua");
    static final LuaScript DELETE = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "delete.lua");
    static final LuaScript EXPIRE = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "expire.lua");
    static final LuaScript TICKER = LuaScript.of(CIVIL, DIR + "tasks.lua", DIR + "ticker.lua");

    /** A due cron template as one ticker read it: the next tick it had, and the ticks it moves to. */
    record Tick(String id, long read, String previous, String next) {
    }

    private final Jedis jedis;
    private final InstantSource clock;
    private final RescueOptions options;
    private final RescueKeys keys;

    RescueScripts(Jedis jedis, InstantSource clock, RescueOptions options, RescueKeys keys) {
        this.jedis = jedis;
        this.clock = clock;
        this.options = options;
        this.keys = keys;
    }

    /** Stores prepared tasks in order; each its stored form with its id, or empty where Root suppressed it. */
    List<Optional<Task>> create(List<Task> prepared) {
        List<byte[]> args = common();
        args.add(bytes(options.retention().toMillis()));
        for (Task t : prepared) {
            Map<String, String> hash = TaskStore.encode(t);
            args.add(bytes(hash.size()));
            hash.forEach((f, v) -> {
                args.add(bytes(f));
                args.add(bytes(v));
            });
        }
        List<?> ids = (List<?>) CREATE.run(jedis, keys(keys.sequence(), keys.all()), args);
        List<Optional<Task>> out = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            long id = (Long) ids.get(i);
            out.add(id == 0 ? Optional.empty()
                    : Optional.of(prepared.get(i).withLabel(Task.Section.CORE, Labels.OBJECT, Long.toString(id))));
        }
        return out;
    }

    /** Up to {@code max} tasks for this worker, in the order single searches would give them. */
    List<Task> search(int max, int broadcastPage) {
        List<byte[]> args = common();
        args.add(bytes(options.worker()));
        args.add(bytes(options.lease().toMillis()));
        args.add(bytes(max));
        args.add(bytes(broadcastPage));
        List<?> reply = (List<?>) SEARCH.run(jedis,
                keys(keys.available(), keys.broadcast(), keys.owned(), keys.retention()), args);
        List<Task> found = new ArrayList<>();
        int at = 1;
        for (long i = 0; i < (Long) reply.get(0); i++) {
            int fields = ((Long) reply.get(at)).intValue();
            found.add(decode(reply, at + 1, fields));
            at += 1 + 2 * fields;
        }
        return found;
    }

    Task extend(String id, Task caller) {
        List<byte[]> args = common();
        args.add(bytes(options.worker()));
        args.add(bytes(options.lease().toMillis()));
        args.add(bytes(id));
        args.add(bytes(caller.core().getOrDefault(Labels.WORKER, "")));
        args.add(bytes(caller.core().getOrDefault(Labels.CYCLES, "")));
        List<?> reply = (List<?>) EXTEND.run(jedis, keys(keys.owned()), args);
        return checked(reply, id, caller);
    }

    void delete(String id, Task caller) {
        List<byte[]> args = common();
        args.add(bytes(options.worker()));
        args.add(bytes(options.retention().toMillis()));
        args.add(bytes(id));
        args.add(bytes(caller.core().getOrDefault(Labels.WORKER, "")));
        args.add(bytes(caller.core().getOrDefault(Labels.CYCLES, "")));
        args.add(bytes("true".equals(caller.core().get(Labels.BYPASS)) ? 1 : 0));
        args.add(bytes(caller.sync().size()));
        caller.sync().forEach((k, v) -> {
            args.add(bytes(k));
            args.add(bytes(v));
        });
        List<?> reply = (List<?>) DELETE.run(jedis, keys(keys.all()), args);
        if ((Long) reply.get(0) == -2) {
            throw new NotOwnerException("task " + id + " is never owned: delete it with the bypass label");
        }
        checked(reply, id, caller);
    }

    int expire() {
        return ((Long) EXPIRE.run(jedis, keys(keys.owned(), keys.retention()), common())).intValue();
    }

    /**
     * Emits one task per due cron template and moves its ticks, in one script call: {@link #dueTicks} then
     * {@link #tick}. Two tickers that read the same due tick both call the script; the second finds the tick moved
     * and skips the template, so each tick emits once.
     */
    int ticker() {
        Instant now = clock.instant();
        List<Tick> due = dueTicks(now);
        return due.isEmpty() ? 0 : tick(due, now);
    }

    /**
     * The cron templates due at {@code now} (next tick at or before it), oldest tick first (ids in order among equal
     * ticks, as the WATCH/MULTI form emits them), each with the ticks Cron gives around {@code now}: two round trips,
     * the due part of the cron zset and the templates' @every labels (pipelined).
     */
    List<Tick> dueTicks(Instant now) {
        List<Tuple> due = new ArrayList<>(jedis.zrangeByScoreWithScores(keys.cron(), Double.NEGATIVE_INFINITY,
                now.toEpochMilli()));
        if (due.isEmpty()) {
            return List.of();
        }
        due.sort(Comparator.comparingDouble(Tuple::getScore).thenComparingLong(t -> Long.parseLong(t.getElement())));
        Pipeline p = jedis.pipelined();
        List<Response<String>> every = new ArrayList<>(due.size());
        for (Tuple t : due) {
            every.add(p.hget(keys.task(t.getElement()), Task.Section.CRON.field + ":" + Labels.EVERY));
        }
        p.sync();
        List<Tick> ticks = new ArrayList<>(due.size());
        for (int i = 0; i < due.size(); i++) {
            String expression = every.get(i).get();
            if (expression == null) {
                continue; // deleted since: nothing to tick
            }
            Cron cron = Cron.parse(expression);
            ticks.add(new Tick(due.get(i).getElement(), (long) due.get(i).getScore(),
                    Cron.format(cron.previous(now)), Cron.format(cron.next(now))));
        }
        return ticks;
    }

    /** Runs the ticker script over ticks read at {@code now}; how many tasks it emitted. */
    int tick(List<Tick> ticks, Instant now) {
        if (ticks.isEmpty()) {
            return 0;
        }
        List<byte[]> args = common(now);
        args.add(bytes(options.retention().toMillis()));
        for (Tick t : ticks) {
            args.add(bytes(t.id()));
            args.add(bytes(t.read()));
            args.add(bytes(t.previous()));
            args.add(bytes(t.next()));
        }
        return ((Long) TICKER.run(jedis, keys(keys.cron(), keys.sequence(), keys.all()), args)).intValue();
    }

    /** {1, fields} -> the task; {0} no task; {-1, stored fields} not the owner (RescueEngine's messages). */
    private Task checked(List<?> reply, String id, Task caller) {
        long status = (Long) reply.get(0);
        if (status == 0) {
            throw new NotOwnerException("no task " + id);
        }
        Task task = decode(reply, 1, (reply.size() - 1) / 2);
        if (status < 0) {
            throw new NotOwnerException("task " + id + " is not owned by " + options.worker() + " in cycle "
                    + caller.core().get(Labels.CYCLES) + " (stored: " + task.core() + ")");
        }
        return task;
    }

    private static Task decode(List<?> reply, int from, int fields) {
        Map<String, String> hash = new java.util.HashMap<>();
        for (int i = 0; i < fields; i++) {
            hash.put(text(reply.get(from + 2 * i)), text(reply.get(from + 2 * i + 1)));
        }
        return TaskStore.decode(hash);
    }

    /** The arguments every script starts with (tasks.lua): the key prefix, the time, the wake command. */
    private List<byte[]> common() {
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(keys.prefix()));
        args.add(bytes(ServerTime.argument(clock)));
        args.add(bytes(options.wakeCommand()));
        return args;
    }

    /** As {@link #common()}, with an injected clock's reading already taken ({@code now}) rather than a new one. */
    private List<byte[]> common(Instant now) {
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(keys.prefix()));
        args.add(bytes(clock instanceof RedisClock ? "" : Long.toString(now.toEpochMilli())));
        args.add(bytes(options.wakeCommand()));
        return args;
    }

    private static List<byte[]> keys(String... names) {
        List<byte[]> out = new ArrayList<>(names.length);
        for (String n : names) {
            out.add(bytes(n));
        }
        return out;
    }

    private static byte[] bytes(Object o) {
        return String.valueOf(o).getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Object o) {
        return new String((byte[]) o, StandardCharsets.UTF_8);
    }
}
