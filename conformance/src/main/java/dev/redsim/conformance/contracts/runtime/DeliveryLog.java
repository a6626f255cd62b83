package dev.redsim.conformance.contracts.runtime;

import dev.redsim.conformance.contracts.thoonk.ManualClock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the handlers saw, checked as it happens: a job run by a second handler while the lease of a run under way is
 * valid is a problem, and so is a job delivered again before the deadline of a run that ended normally (the lease the runtime was given, on the suite's
 * clock; not the handler's start, as the clock may move between a claim and its handler). A run that threw or was
 * interrupted may have given its lease up (a hand-back, a retry), so what follows it is not judged by time.
 */
public final class DeliveryLog {
    private final ManualClock clock;
    private final Map<String, List<Long>> deliveries = new HashMap<>();
    /** The lease deadlines of the runs of each job under way (on the suite's clock). */
    private final Map<String, List<Long>> running = new HashMap<>();
    private final Set<String> ranToTheEnd = new HashSet<>();
    private final Map<String, Long> lastNormalDeadline = new HashMap<>();
    private final List<String> problems = new ArrayList<>();

    public DeliveryLog(ManualClock clock) {
        this.clock = clock;
    }

    /** Wraps a handler body with the bookkeeping. */
    public RuntimeSubject.Handler around(RuntimeSubject.Handler body) {
        return (id, deadline) -> {
            started(id, deadline.toEpochMilli());
            boolean normal = false;
            try {
                body.run(id, deadline);
                normal = true;
            } finally {
                ended(id, normal, deadline.toEpochMilli());
            }
        };
    }

    private synchronized void started(String id, long leaseEnd) {
        long now = clock.millis();
        List<Long> times = deliveries.computeIfAbsent(id, k -> new ArrayList<>());
        List<Long> underWay = running.computeIfAbsent(id, k -> new ArrayList<>());
        // A run still under way whose lease has not passed: the job is delivered twice inside a lease. One whose
        // lease passed (the clock moved between its claim and now, faster than its heartbeat) may be taken back.
        if (underWay.stream().anyMatch(d -> now < d)) {
            problems.add(id + " run twice at once, inside the lease of the run under way");
        }
        underWay.add(leaseEnd);
        Long deadline = lastNormalDeadline.get(id);
        if (deadline != null && now < deadline) {
            problems.add(id + " delivered again at " + now + ", inside the lease (to " + deadline
                + ") of a run that ended normally");
        }
        times.add(now);
        notifyAll();
    }

    private synchronized void ended(String id, boolean normal, long deadline) {
        List<Long> underWay = running.get(id);
        underWay.remove(Long.valueOf(deadline));
        if (underWay.isEmpty()) {
            running.remove(id);
        }
        List<Long> times = deliveries.get(id);
        if (normal) {
            ranToTheEnd.add(id);
            lastNormalDeadline.put(id, deadline);
        } else {
            lastNormalDeadline.remove(id);
        }
        notifyAll();
    }

    /** Waits for the next delivery or end, up to {@code millis} (an event awaited; the bound only ends the wait). */
    public synchronized void awaitChange(long millis) throws InterruptedException {
        wait(millis);
    }

    public synchronized int deliveries(String id) {
        return deliveries.getOrDefault(id, List.of()).size();
    }

    public synchronized Set<String> ranToTheEnd() {
        return new HashSet<>(ranToTheEnd);
    }

    public synchronized List<String> problems() {
        return new ArrayList<>(problems);
    }
}
