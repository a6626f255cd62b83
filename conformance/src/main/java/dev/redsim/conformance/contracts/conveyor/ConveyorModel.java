package dev.redsim.conformance.contracts.conveyor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Conveyor contract in memory: where every job must be after each operation. The implementation is compared
 * with it place by place; its rules are the resolutions written in docs/contracts/conveyor.md.
 */
final class ConveyorModel {
    private final long leaseMillis;
    private final ConveyorSubject subject;
    private long now;
    private long stamp;

    private final Map<String, JobSpec> jobs = new LinkedHashMap<>();
    /** uuid -> place name, in the port's naming. */
    private final Map<String, String> place = new HashMap<>();
    /** uuid -> the order in which it entered its queue; equal stamps entered together. */
    private final Map<String, Long> queuedAt = new HashMap<>();
    private final Map<String, Long> dueAt = new HashMap<>();
    private final Map<String, Long> leaseExpiry = new HashMap<>();
    /** uuid -> the claim number that currently owns it. */
    private final Map<String, Integer> owner = new HashMap<>();
    private final Map<String, Integer> retries = new HashMap<>();
    private final Map<String, List<String>> children = new HashMap<>();
    private final Map<String, List<String>> onComplete = new HashMap<>();
    private final Map<String, Set<String>> active = new HashMap<>();
    private final Set<String> ranToEnd = new HashSet<>();
    /** uuid -> order of finalization, to check "a parent completes after its children". */
    private final Map<String, Integer> finalizedAs = new HashMap<>();

    ConveyorModel(ConveyorSubject subject, long startMillis) {
        this.subject = subject;
        this.leaseMillis = subject.lease().toMillis();
        this.now = startMillis;
    }

    long now() {
        return now;
    }

    void advance(long millis) {
        now += millis;
    }

    Set<String> uuids() {
        return jobs.keySet();
    }

    JobSpec job(String uuid) {
        return jobs.get(uuid);
    }

    String placeOf(String uuid) {
        return place.get(uuid);
    }

    void add(JobSpec job, boolean deadParent) {
        stamp++;
        jobs.put(job.uuid(), job);
        retries.put(job.uuid(), 0);
        boolean parentDead = deadParent || (!job.parent().isEmpty() && ranToEnd.contains(job.parent()));
        if (!job.parent().isEmpty() && !parentDead) {
            children.computeIfAbsent(job.parent(), k -> new ArrayList<>()).add(job.uuid());
            place.put(job.uuid(), "children:" + job.parent());
        } else if (!job.predecessor().isEmpty() && !parentDead && !finalizedAs.containsKey(job.predecessor())) {
            onComplete.computeIfAbsent(job.predecessor(), k -> new ArrayList<>()).add(job.uuid());
            place.put(job.uuid(), "onComplete:" + job.predecessor());
        } else {
            placeJob(job.uuid(), job.runAtMillis());
        }
    }

    private void placeJob(String uuid, long runAt) {
        JobSpec job = jobs.get(uuid);
        if (!job.parent().isEmpty()) {
            active.computeIfAbsent(job.parent(), k -> new HashSet<>()).add(uuid);
        }
        if (runAt > now) {
            place.put(uuid, "scheduled");
            dueAt.put(uuid, runAt);
        } else {
            enqueue(uuid);
        }
    }

    private void enqueue(String uuid) {
        place.put(uuid, "queue:" + jobs.get(uuid).queue());
        queuedAt.put(uuid, stamp);
    }

    /** The uuids a claim on this queue may return: the oldest ones (ties entered in one operation). */
    Set<String> claimable(String queue) {
        long oldest = Long.MAX_VALUE;
        Set<String> out = new HashSet<>();
        for (var e : place.entrySet()) {
            if (e.getValue().equals("queue:" + queue)) {
                long at = queuedAt.get(e.getKey());
                if (at < oldest) {
                    oldest = at;
                    out.clear();
                }
                if (at == oldest) {
                    out.add(e.getKey());
                }
            }
        }
        return out;
    }

    void claimed(String uuid, int claimNumber) {
        stamp++;
        place.put(uuid, "running");
        leaseExpiry.put(uuid, now + leaseMillis);
        owner.put(uuid, claimNumber);
    }

    boolean owns(String uuid, int claimNumber) {
        Integer current = owner.get(uuid);
        return current != null && current == claimNumber && "running".equals(place.get(uuid));
    }

    int retries(String uuid) {
        return retries.get(uuid);
    }

    void complete(String uuid) {
        stamp++;
        finish(uuid, "done");
    }

    void fail(String uuid) {
        stamp++;
        JobSpec job = jobs.get(uuid);
        int retry = retries.get(uuid);
        if (retry >= job.maxRetries()) {
            finish(uuid, "failed");
            return;
        }
        retries.put(uuid, retry + 1);
        owner.remove(uuid);
        place.put(uuid, "scheduled");
        dueAt.put(uuid, now + subject.backoff(retry + 1).toMillis());
    }

    private final Map<String, String> outcome = new HashMap<>();

    private void finish(String uuid, String result) {
        owner.remove(uuid);
        ranToEnd.add(uuid);
        outcome.put(uuid, result);
        List<String> kids = children.getOrDefault(uuid, List.of());
        children.remove(uuid);
        for (String kid : kids) {
            placeJob(kid, jobs.get(kid).runAtMillis());
        }
        if (active.getOrDefault(uuid, Set.of()).isEmpty()) {
            finalize(uuid);
        } else {
            place.put(uuid, "waiting");
        }
    }

    private void finalize(String uuid) {
        List<String> successors = onComplete.getOrDefault(uuid, List.of());
        onComplete.remove(uuid);
        for (String s : successors) {
            placeJob(s, jobs.get(s).runAtMillis());
        }
        place.put(uuid, outcome.get(uuid));
        finalizedAs.put(uuid, finalizedAs.size());
        String parent = jobs.get(uuid).parent();
        if (!parent.isEmpty()) {
            Set<String> siblings = active.getOrDefault(parent, new HashSet<>());
            siblings.remove(uuid);
            if (siblings.isEmpty() && "waiting".equals(place.get(parent))) {
                finalize(parent);
            }
        }
    }

    void runScheduler() {
        stamp++;
        for (String uuid : new ArrayList<>(dueAt.keySet())) {
            if ("scheduled".equals(place.get(uuid)) && dueAt.get(uuid) <= now) {
                dueAt.remove(uuid);
                enqueue(uuid);
            }
        }
    }

    void recoverExpired() {
        stamp++;
        for (String uuid : new ArrayList<>(leaseExpiry.keySet())) {
            if ("running".equals(place.get(uuid)) && leaseExpiry.get(uuid) <= now) {
                leaseExpiry.remove(uuid);
                owner.remove(uuid);
                enqueue(uuid);
            }
        }
    }

    /** The expected places, in the port's shape (sorted uuids, no empty places). */
    Map<String, List<String>> expectedPlaces() {
        Map<String, List<String>> out = new TreeMap<>();
        for (var e : place.entrySet()) {
            out.computeIfAbsent(e.getValue(), k -> new ArrayList<>()).add(e.getKey());
        }
        out.values().forEach(l -> l.sort(null));
        return out;
    }

    /** "A parent completes only after all its children": every released child of a final parent is final first. */
    String parentOrderViolation() {
        for (var e : jobs.entrySet()) {
            String parent = e.getValue().parent();
            Integer childOrder = finalizedAs.get(e.getKey());
            Integer parentOrder = parent.isEmpty() ? null : finalizedAs.get(parent);
            if (parentOrder != null && childOrder != null && childOrder > parentOrder
                    && !addedAfterFinal.contains(e.getKey())) {
                return "parent " + parent + " finalized before its child " + e.getKey();
            }
        }
        return null;
    }

    private final Set<String> addedAfterFinal = new HashSet<>();

    /** True for a child added to a parent that had already ended: it may end after its parent. */
    boolean lateChild(String uuid) {
        return addedAfterFinal.contains(uuid);
    }

    /** Children added to a parent that had already ended are allowed to end after it. */
    void noteLateChild(JobSpec job) {
        if (!job.parent().isEmpty() && finalizedAs.containsKey(job.parent())) {
            addedAfterFinal.add(job.uuid());
        }
    }

    boolean allFinal() {
        for (String uuid : jobs.keySet()) {
            String p = place.get(uuid);
            if (!p.equals("done") && !p.equals("failed")) {
                return false;
            }
        }
        return true;
    }
}
