package dev.redsim.queue.rescue;

import dev.redsim.queue.script.LuaScript;
import dev.redsim.queue.time.ServerTime;
import redis.clients.jedis.Jedis;

import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * rescue's create, search, extend, delete and expire as Lua scripts (resources/rescue/scripts; tasks.lua is the
 * store: the same hash and index layout as {@link TaskStore}), each one round trip, no WATCH, time from Redis's
 * TIME when the clock is a RedisClock. Ticker (cron) stays the WATCH/MULTI form: see docs/contracts/rescue.md.
 */
final class RescueScripts {
    private static final String DIR = "/rescue/scripts/";
    static final LuaScript CREATE = LuaScript.of(DIR + "tasks.lua", DIR + "create.lua");
    static final LuaScript SEARCH = LuaScript.of(DIR + "tasks.lua", DIR + "search.lua");
    static final LuaScript EXTEND = LuaScript.of(DIR + "tasks.lua", DIR + "extend.lua");
    static final LuaScript DELETE = LuaScript.of(DIR + "tasks.lua", DIR + "delete.lua");
    static final LuaScript EXPIRE = LuaScript.of(DIR + "tasks.lua", DIR + "expire.lua");

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

    private List<byte[]> common() {
        List<byte[]> args = new ArrayList<>();
        args.add(bytes(keys.prefix()));
        args.add(bytes(ServerTime.argument(clock)));
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
