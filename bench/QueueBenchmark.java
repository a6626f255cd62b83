import dev.redsim.queue.conveyor.Conveyor;
import dev.redsim.queue.conveyor.ConveyorKeys;
import dev.redsim.queue.conveyor.ConveyorOptions;
import dev.redsim.queue.conveyor.Deadline;
import dev.redsim.queue.conveyor.Lease;
import dev.redsim.queue.jq.JqOptions;
import dev.redsim.queue.jq.client.JqPusher;
import dev.redsim.queue.jq.client.JqWorker;
import dev.redsim.queue.jq.master.JqMaster;
import dev.redsim.queue.jq.master.MasterSettings;
import dev.redsim.queue.rescue.RescueEngine;
import dev.redsim.queue.rescue.RescueOptions;
import dev.redsim.queue.rescue.Task;
import dev.redsim.queue.script.Transitions;
import dev.redsim.queue.thoonk.Claim;
import dev.redsim.queue.thoonk.Job;
import dev.redsim.queue.time.RedisClock;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queues' put -> claim -> finish loop, W workers, batches of B, against redis-server and the simulator (each its
 * own process, started by bench/queue-benchmark.sh), the same client code, alternating in one run. Each worker has
 * its own connection and loops: put B jobs, claim up to B, finish what it claimed, until N jobs are finished. Prints
 * jobs/s of both servers and their ratio (best of the rounds for both alike), the commands and round trips the client
 * sent per job (counted on the client's sockets: RESP commands written, and flushes = requests waited for), and the
 * commands the server executed per job (INFO total_commands_processed: calls made inside scripts included).
 * rescue: create B tasks (one call), search up to B (one call), delete each. jq: over HTTP, the JQ master in the bench
 * JVM (its own Redis pool, the given transitions), each worker a pusher and a long-poll worker client: push B (POST
 * /jobs/batch, or POST /jobs when B = 1), take up to B (POST /workers/next/batch, or /workers/next), report them
 * (POST /outcomes, or one POST per job); its "cmds/job" and "trips/job" are HTTP requests per job. jq-constrained:
 * the same, with constraints that every claim evaluates (the scripted constrained claim, matching.lua): each job's
 * argument is a map {tenant: 0..3}, each tenant limited to B*W/2 running jobs (so claims pass over jobs of a full
 * tenant), and every job in a rate log of a limit it never reaches (the log is written and counted, the rate never
 * holds a job back).
 *
 *   java -cp CLASSPATH bench/QueueBenchmark.java --redis PORT --sim PORT [--contracts conveyor,thoonk,rescue,jq,jq-constrained]
 *        [--workers 1,4] [--batch 1,10] [--jobs 20000] [--rounds 2] [--transitions scripts,optimistic]
 */
public class QueueBenchmark {
    private static final byte[] PAYLOAD = new byte[16];
    /** Claims abandoned after bounded conflicts in the current run (the optimistic forms under contention). */
    private static final AtomicLong GAVE_UP = new AtomicLong();

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        int redisPort = Integer.parseInt(opts.get("redis"));
        int simPort = Integer.parseInt(opts.get("sim"));
        String[] contracts = opts.getOrDefault("contracts", "conveyor,thoonk").split(",");
        String[] workers = opts.getOrDefault("workers", "1,4").split(",");
        String[] batches = opts.getOrDefault("batch", "1,10").split(",");
        String[] modes = opts.getOrDefault("transitions", "scripts,optimistic").split(",");
        int jobs = Integer.parseInt(opts.getOrDefault("jobs", "20000"));
        int rounds = Integer.parseInt(opts.getOrDefault("rounds", "2"));

        // Warm both JITs (the client's and the simulator's) on every path before measuring.
        for (String contract : contracts) {
            for (String mode : modes) {
                for (int port : new int[] {redisPort, simPort}) {
                    run(port, contract, Transitions.valueOf(mode.toUpperCase()), 2, 10, Math.min(jobs, 5000));
                    run(port, contract, Transitions.valueOf(mode.toUpperCase()), 1, 1, Math.min(jobs, 2000));
                }
            }
        }
        System.out.printf("%d jobs a run, best of %d rounds, redis-server and simulator alternating; %d cores%n", jobs,
            rounds, Runtime.getRuntime().availableProcessors());
        System.out.printf("%-9s %-10s %3s %4s %12s %12s %6s %10s %10s %10s %10s %8s%n", "contract", "mode", "W", "B",
            "redis job/s", "sim job/s", "ratio", "cmds/job", "trips/job", "srv r/job", "srv s/job", "gave up");
        for (String contract : contracts) {
            for (String mode : modes) {
                Transitions t = Transitions.valueOf(mode.toUpperCase());
                for (String w : workers) {
                    for (String b : batches) {
                        Result redis = null;
                        Result sim = null;
                        for (int round = 0; round < rounds; round++) {
                            // Alternate which server goes first, so neither always runs on a cooler machine.
                            int[] order = round % 2 == 0 ? new int[] {redisPort, simPort} : new int[] {simPort, redisPort};
                            for (int port : order) {
                                Result r = run(port, contract, t, Integer.parseInt(w), Integer.parseInt(b), jobs);
                                if (port == redisPort) {
                                    redis = Result.best(redis, r);
                                } else {
                                    sim = Result.best(sim, r);
                                }
                            }
                        }
                        System.out.printf("%-9s %-10s %3s %4s %12.0f %12.0f %6.2f %10.2f %10.2f %10.2f %10.2f %8s%n",
                            contract, mode, w, b, redis.jobsPerSecond, sim.jobsPerSecond,
                            sim.jobsPerSecond / redis.jobsPerSecond, redis.commandsPerJob, redis.roundTripsPerJob,
                            redis.serverCommandsPerJob, sim.serverCommandsPerJob, redis.gaveUp + "/" + sim.gaveUp);
                    }
                }
            }
        }
    }

    record Result(double jobsPerSecond, double commandsPerJob, double roundTripsPerJob, double serverCommandsPerJob,
                  long gaveUp) {
        static Result best(Result a, Result b) {
            return a == null || b.jobsPerSecond > a.jobsPerSecond ? b : a;
        }
    }

    /** One measured run: flush, W workers until {@code jobs} are finished; returns the figures. */
    static Result run(int port, String contract, Transitions transitions, int workers, int batch, int jobs)
            throws Exception {
        Counter counter = new Counter();
        GAVE_UP.set(0);
        long serverBefore;
        try (Jedis admin = new Jedis("127.0.0.1", port)) {
            admin.flushAll();
            serverBefore = commandsProcessed(admin);
        }
        AtomicLong finished = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        boolean http = contract.startsWith("jq");
        try (JedisPool timePool = new JedisPool("127.0.0.1", port);
             JqMaster master = http ? JqMaster.start(java.net.URI.create("redis://127.0.0.1:" + port), "127.0.0.1", 0,
                 MasterSettings.defaults().withOptions(JqOptions.defaults().withTransitions(transitions))) : null) {
            RedisClock clock = RedisClock.over(timePool);
            if (contract.equals("jq-constrained")) {
                defineTenantConstraints(master.uri(), Math.max(1, batch * workers / 2));
            }
            for (int i = 0; i < workers; i++) {
                int worker = i;
                Jedis jedis = http ? null : new Jedis(new CountingSockets(port, counter), DefaultJedisClientConfig
                    .builder().clientSetInfoConfig(redis.clients.jedis.ClientSetInfoConfig.DISABLED).build());
                Runnable loop = switch (contract) {
                    case "thoonk" -> () -> thoonk(jedis, clock, transitions, batch, jobs, finished);
                    case "rescue" -> () -> rescue(jedis, clock, transitions, "w" + worker, batch, jobs, finished);
                    case "jq" -> () -> jq(master.uri(), "w" + worker, batch, jobs, finished, counter, false);
                    case "jq-constrained" -> () -> jq(master.uri(), "w" + worker, batch, jobs, finished, counter, true);
                    default -> () -> conveyor(jedis, clock, transitions, batch, jobs, finished);
                };
                Thread t = new Thread(() -> {
                    try (AutoCloseable connection = jedis) {
                        start.await();
                        loop.run();
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "bench-worker-" + i);
                threads.add(t);
                t.start();
            }
            counter.reset();
            long t0 = System.nanoTime();
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (!errors.isEmpty()) {
                throw new IllegalStateException("a worker failed", errors.get(0));
            }
            long serverCommands;
            try (Jedis admin = new Jedis("127.0.0.1", port)) {
                serverCommands = commandsProcessed(admin) - serverBefore - 1;
            }
            long done = finished.get();
            return new Result(done / seconds, (double) counter.commands.get() / done,
                (double) counter.roundTrips.get() / done, (double) serverCommands / done, GAVE_UP.get());
        }
    }

    static void conveyor(Jedis jedis, RedisClock clock, Transitions transitions, int batch, int jobs,
                         AtomicLong finished) {
        Conveyor conveyor = new Conveyor(jedis, clock, ConveyorOptions.defaults().withTransitions(transitions),
            ConveyorKeys.standard());
        while (finished.get() < jobs) {
            List<dev.redsim.queue.conveyor.Job> batchJobs = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                batchJobs.add(dev.redsim.queue.conveyor.Job.of("bench", PAYLOAD));
            }
            conveyor.addAll(Deadline.none(), batchJobs);
            List<Lease> leases = conveyor.claimMany(Deadline.none(), "bench", batch);
            conveyor.completeAll(Deadline.none(), leases);
            finished.addAndGet(leases.size());
        }
    }

    static void thoonk(Jedis jedis, RedisClock clock, Transitions transitions, int batch, int jobs,
                       AtomicLong finished) {
        Job job = new Job(jedis, "{bench}", clock, transitions);
        while (finished.get() < jobs) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                items.add("item");
            }
            job.putAll(items);
            List<Claim> claims;
            try {
                claims = job.getMany(batch, Duration.ZERO);
            } catch (dev.redsim.queue.thoonk.ThoonkConflictException e) {
                // The WATCH/MULTI claim gave up after 100 conflicting attempts (every put touches the watched
                // feed.items): its popped id waits for maintenance. Counted, and the worker goes on.
                GAVE_UP.incrementAndGet();
                continue;
            }
            job.finishAll(claims, null);
            finished.addAndGet(claims.size());
        }
    }

    static void rescue(Jedis jedis, RedisClock clock, Transitions transitions, String worker, int batch, int jobs,
                       AtomicLong finished) {
        RescueEngine engine = new RescueEngine(jedis, clock, RescueOptions.of("bench", worker)
            .withTransitions(transitions));
        while (finished.get() < jobs) {
            List<Task> tasks = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                tasks.add(Task.withMeta(Map.of("bench.io/kind", "job")));
            }
            engine.createMany(tasks);
            List<Task> found = engine.searchMany(batch);
            for (Task task : found) {
                engine.delete(task);
            }
            finished.addAndGet(found.size());
        }
    }

    /** The tenants of jq-constrained: a job's argument names one, round robin. */
    private static final int TENANTS = 4;

    /** jq-constrained's constraints, over the master's HTTP API: one per tenant (concurrency), one rate over all. */
    static void defineTenantConstraints(java.net.URI master, int perTenant) {
        try (JqPusher pusher = new JqPusher(master)) {
            for (int tenant = 0; tenant < TENANTS; tenant++) {
                pusher.putConstraint("tenant-" + tenant, definition(
                    matcher(org.msgpack.value.ValueFactory.newMap(Map.of(
                        org.msgpack.value.ValueFactory.newString("tenant"),
                        org.msgpack.value.ValueFactory.newInteger(tenant)))), null, perTenant));
            }
            pusher.putConstraint("all", definition(matcher(org.msgpack.value.ValueFactory.newNil()),
                org.msgpack.value.ValueFactory.newMap(Map.of(
                    org.msgpack.value.ValueFactory.newString("limit"), org.msgpack.value.ValueFactory.newInteger(1 << 30),
                    org.msgpack.value.ValueFactory.newString("window_ms"), org.msgpack.value.ValueFactory.newInteger(60_000))),
                0));
        }
    }

    private static org.msgpack.value.Value matcher(org.msgpack.value.Value argument) {
        return org.msgpack.value.ValueFactory.newMap(Map.of(
            org.msgpack.value.ValueFactory.newString("name"), org.msgpack.value.ValueFactory.newString("bench"),
            org.msgpack.value.ValueFactory.newString("argument"), argument));
    }

    private static org.msgpack.value.Value definition(org.msgpack.value.Value matcher, org.msgpack.value.Value rate,
                                                      int concurrency) {
        Map<org.msgpack.value.Value, org.msgpack.value.Value> fields = new LinkedHashMap<>();
        fields.put(org.msgpack.value.ValueFactory.newString("matcher"), matcher);
        fields.put(org.msgpack.value.ValueFactory.newString("rate"), rate == null ? org.msgpack.value.ValueFactory.newNil() : rate);
        fields.put(org.msgpack.value.ValueFactory.newString("concurrency"), concurrency == 0
            ? org.msgpack.value.ValueFactory.newNil() : org.msgpack.value.ValueFactory.newInteger(concurrency));
        return org.msgpack.value.ValueFactory.newMap(fields);
    }

    /** One HTTP client pair per worker; counts its requests as both commands and round trips. */
    static void jq(java.net.URI master, String name, int batch, int jobs, AtomicLong finished, Counter counter,
                   boolean tenants) {
        try (JqPusher pusher = new JqPusher(master);
             JqWorker worker = new JqWorker(master, name, (jobName, argument) -> argument)) {
            org.msgpack.value.Value payload = org.msgpack.value.ValueFactory.newBinary(PAYLOAD);
            org.msgpack.value.Value[] byTenant = new org.msgpack.value.Value[TENANTS];
            for (int t = 0; t < TENANTS; t++) {
                byTenant[t] = org.msgpack.value.ValueFactory.newMap(Map.of(
                    org.msgpack.value.ValueFactory.newString("tenant"), org.msgpack.value.ValueFactory.newInteger(t)));
            }
            long pushed = 0;
            while (finished.get() < jobs) {
                int ran;
                if (batch == 1) {
                    org.msgpack.value.Value argument = tenants ? byTenant[(int) (pushed++ % TENANTS)] : payload;
                    pusher.enqueue(JqPusher.job("bench", argument));
                    ran = worker.runOnce(0) ? 1 : 0;
                    counter.roundTrips.addAndGet(ran == 1 ? 3 : 2);
                    counter.commands.addAndGet(ran == 1 ? 3 : 2);
                } else {
                    List<JqPusher.Job> batchJobs = new ArrayList<>();
                    for (int i = 0; i < batch; i++) {
                        org.msgpack.value.Value argument = tenants ? byTenant[(int) (pushed++ % TENANTS)] : payload;
                        batchJobs.add(JqPusher.job("bench", argument));
                    }
                    pusher.enqueueMany(batchJobs);
                    ran = worker.runBatch(batch, 0);
                    counter.roundTrips.addAndGet(ran > 0 ? 3 : 2);
                    counter.commands.addAndGet(ran > 0 ? 3 : 2);
                }
                finished.addAndGet(ran);
            }
        }
    }

    static long commandsProcessed(Jedis admin) {
        for (String line : admin.info("stats").split("\r\n")) {
            if (line.startsWith("total_commands_processed:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no total_commands_processed");
    }

    /** Commands (RESP arrays) and round trips (flushes after writing) of every socket of one run. */
    static final class Counter {
        final AtomicLong commands = new AtomicLong();
        final AtomicLong roundTrips = new AtomicLong();

        void reset() {
            commands.set(0);
            roundTrips.set(0);
        }
    }

    /** Plain TCP sockets to 127.0.0.1 whose output counts what the client sends. */
    static final class CountingSockets implements JedisSocketFactory {
        private final int port;
        private final Counter counter;

        CountingSockets(int port, Counter counter) {
            this.port = port;
            this.counter = counter;
        }

        @Override
        public Socket createSocket() {
            try {
                Socket socket = new Socket() {
                    private OutputStream counted;

                    @Override
                    public synchronized OutputStream getOutputStream() throws IOException {
                        if (counted == null) {
                            counted = new CountingOutput(super.getOutputStream(), counter);
                        }
                        return counted;
                    }
                };
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                return socket;
            } catch (IOException e) {
                throw new JedisConnectionException(e);
            }
        }
    }

    /** Reads the RESP the client writes just enough to count its commands (arrays of bulk strings). */
    static final class CountingOutput extends FilterOutputStream {
        private final Counter counter;
        private int state; // 0 before a command, 1 in "*N", 2 before an argument, 3 in "$L", 4 in an argument's bytes
        private long number;
        private long argumentsLeft;
        private long skip;
        private boolean written;

        CountingOutput(OutputStream out, Counter counter) {
            super(out);
            this.counter = counter;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
            written |= length > 0;
            int end = offset + length;
            for (int i = offset; i < end; i++) {
                if (state == 4) {
                    int n = (int) Math.min(skip, end - i);
                    skip -= n;
                    i += n - 1;
                    if (skip == 0) {
                        state = --argumentsLeft > 0 ? 2 : 0;
                    }
                    continue;
                }
                byte b = bytes[i];
                switch (state) {
                    case 0 -> {
                        if (b == '*') {
                            counter.commands.incrementAndGet();
                            number = 0;
                            state = 1;
                        }
                    }
                    case 1, 3 -> {
                        if (b >= '0' && b <= '9') {
                            number = number * 10 + (b - '0');
                        } else if (b == '\n') {
                            if (state == 1) {
                                argumentsLeft = number;
                                state = argumentsLeft > 0 ? 2 : 0;
                            } else {
                                skip = number + 2;
                                state = 4;
                            }
                        }
                    }
                    case 2 -> {
                        if (b == '$') {
                            number = 0;
                            state = 3;
                        }
                    }
                    default -> throw new IllegalStateException();
                }
            }
        }

        @Override
        public void flush() throws IOException {
            if (written) {
                counter.roundTrips.incrementAndGet();
                written = false;
            }
            out.flush();
        }
    }
}
