package dev.redsim.conformance.contracts.thoonk;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The job contract in memory, as docs/contracts/thoonk.md reads it: what each operation answers and what the
 * keys hold afterwards. Sequential only (no crashes), so maintenance never finds unaccounted ids here.
 */
public final class JobModel {
    private final JobQueueSettings settings;
    private final LinkedList<String> available = new LinkedList<>();
    private final Map<String, Long> claimed = new TreeMap<>();
    private final Set<String> stalled = new TreeSet<>();
    private final Map<String, String> items = new TreeMap<>();
    private final Map<String, Long> cancelled = new TreeMap<>();
    private final Map<String, Long> published = new TreeMap<>();
    private long finishes;

    public JobModel(JobQueueSettings settings) {
        this.settings = settings;
    }

    public void put(String id, String item, boolean high, long now) {
        if (high) {
            available.addLast(id);
        } else {
            available.addFirst(id);
        }
        items.put(id, item);
        published.put(id, now);
    }

    public boolean hasAvailable() {
        return !available.isEmpty();
    }

    /** The claim the next get must return. */
    public JobClaim get(long now) {
        String id = available.removeLast();
        claimed.put(id, now);
        return new JobClaim(id, items.get(id), now);
    }

    private boolean holds(JobClaim claim) {
        Long at = claimed.get(claim.id());
        return at != null && at == claim.claimedAt();
    }

    public boolean finish(JobClaim claim) {
        if (!holds(claim)) {
            return false;
        }
        claimed.remove(claim.id());
        cancelled.remove(claim.id());
        items.remove(claim.id());
        published.remove(claim.id());
        finishes++;
        return true;
    }

    public boolean cancel(JobClaim claim) {
        if (!holds(claim)) {
            return false;
        }
        cancelled.merge(claim.id(), 1L, Long::sum);
        available.addFirst(claim.id());
        claimed.remove(claim.id());
        return true;
    }

    public boolean stall(JobClaim claim) {
        if (!holds(claim)) {
            return false;
        }
        claimed.remove(claim.id());
        cancelled.remove(claim.id());
        stalled.add(claim.id());
        published.remove(claim.id());
        return true;
    }

    public boolean retry(String id, long now) {
        if (!stalled.remove(id)) {
            return false;
        }
        available.addFirst(id);
        published.put(id, now);
        return true;
    }

    public boolean retract(String id) {
        if (items.remove(id) == null) {
            return false;
        }
        cancelled.remove(id);
        published.remove(id);
        stalled.remove(id);
        claimed.remove(id);
        available.remove(id);
        return true;
    }

    public long failures(String id) {
        return cancelled.getOrDefault(id, 0L);
    }

    /** Timed-out claims, oldest first (ties by id, as ZRANGE orders them), are cancelled or stalled. */
    public MaintenanceOutcome maintain(long now) {
        List<Map.Entry<String, Long>> old = new ArrayList<>(claimed.entrySet());
        old.sort(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
        int cancels = 0;
        int stalls = 0;
        for (Map.Entry<String, Long> c : old) {
            if (now - c.getValue() > settings.claimTimeoutMillis()) {
                JobClaim claim = new JobClaim(c.getKey(), items.get(c.getKey()), c.getValue());
                if (failures(c.getKey()) >= settings.maxCancels()) {
                    stalls += stall(claim) ? 1 : 0;
                } else {
                    cancels += cancel(claim) ? 1 : 0;
                }
            }
        }
        return new MaintenanceOutcome(0, cancels, stalls);
    }

    public JobState state() {
        return new JobState(new ArrayList<>(available), new TreeMap<>(claimed), new TreeSet<>(stalled),
            new TreeMap<>(items), new TreeMap<>(cancelled), new TreeMap<>(published), finishes);
    }

    /** Ids of jobs that still exist. */
    public Set<String> live() {
        return new HashSet<>(items.keySet());
    }

}
