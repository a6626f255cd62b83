package dev.redsim.conformance.contracts.rescue;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.target.RedisTarget;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's rules one at a time, as short stories on three workers and a manual clock. */
final class Scenarios {
    private static final Map<String, String> X = Map.of("x.api.io/object", "1234");

    private final RedisTarget target;
    private final RescueSubject subject;
    private ManualClock clock;

    Scenarios(RedisTarget target, RescueSubject subject) {
        this.target = target;
        this.subject = subject;
    }

    private List<RescuePort> workers(long startMillis) {
        HistoryRunner.flush(target);
        clock = new ManualClock(startMillis);
        return RescueOp.WORKERS.stream().map(w -> subject.connect(target.host(), target.port(), clock, w)).toList();
    }

    /** At most one owner; expiry revokes and the task is found again; the stale owner can neither delete nor extend. */
    void ownershipAndExpiry() {
        List<RescuePort> w = workers(HistoryRunner.START_MILLIS);
        try {
            w.get(0).create(RescueTask.meta(X));
            RescueTask first = w.get(0).search().orElseThrow();
            assertThat(first.core()).containsEntry(RescueTask.WORKER, "w0").containsEntry(RescueTask.CYCLES, "1");
            assertThat(w.get(1).search()).as("a task has at most one owner").isEmpty();
            assertThat(w.get(1).exists(RescueTask.meta(Map.of()).withCore(Map.of(RescueTask.WORKER, "w0")))).isTrue();
            clock.advance(subject.lease().toMillis() - 1);
            assertThat(w.get(1).expire()).as("not expired yet").isZero();
            RescueTask renewed = w.get(0).extend(first).orElseThrow();
            clock.advance(subject.lease().toMillis());
            assertThat(w.get(0).delete(renewed)).as("an expired owner cannot delete, even before Expire").isFalse();
            assertThat(w.get(2).expire()).isEqualTo(1);
            RescueTask second = w.get(1).search().orElseThrow();
            assertThat(second.core()).containsEntry(RescueTask.WORKER, "w1").containsEntry(RescueTask.CYCLES, "2");
            assertThat(w.get(0).delete(first)).as("stale owner delete").isFalse();
            assertThat(w.get(0).extend(renewed)).as("stale owner extend").isEmpty();
            assertThat(w.get(2).delete(second.withCoreLabel(RescueTask.WORKER, "w2"))).as("cherry-picking").isFalse();
            assertThat(w.get(1).delete(second)).isTrue();
            assertThat(w.get(1).list()).isEmpty();
        } finally {
            w.forEach(RescuePort::close);
        }
    }

    /** The README's own example: 6 hours, ticks at 00/06/12/18 UTC; one emission per tick, no backfill. */
    void cronTicks() {
        List<RescuePort> w = workers(Instant.parse("2023-09-28T14:23:24.161982Z").toEpochMilli());
        try {
            RescueTask template = w.get(0).create(RescueTask.meta(X)
                    .withCron(Map.of(RescueTask.EVERY, "6 hours"))).orElseThrow();
            assertThat(template.cron()).containsEntry(RescueTask.TICK_PREVIOUS, "2023-09-28T12:00:00.000000Z")
                    .containsEntry(RescueTask.TICK_NEXT, "2023-09-28T18:00:00.000000Z");
            assertThat(w.get(1).ticker()).as("never earlier").isZero();
            clock.advance(Instant.parse("2023-09-28T18:00:00Z").toEpochMilli() - clock.millis());
            assertThat(w.get(1).ticker()).isEqualTo(1);
            assertThat(w.get(2).ticker()).as("once per tick").isZero();
            clock.advance(13 * 3_600_000L);
            assertThat(w.get(0).ticker()).as("missed ticks are not backfilled").isEqualTo(1);
            RescueTask moved = w.get(0).list().get(0);
            assertThat(moved.cron()).containsEntry(RescueTask.TICK_PREVIOUS, "2023-09-29T06:00:00.000000Z")
                    .containsEntry(RescueTask.TICK_NEXT, "2023-09-29T12:00:00.000000Z");
            RescueTask emitted = w.get(0).search().orElseThrow();
            assertThat(emitted.meta()).isEqualTo(X);
            assertThat(emitted.cron()).isEmpty();
        } finally {
            w.forEach(RescuePort::close);
        }
    }

    /** A gate template fires once when all its labels are deleted, then waits again for the next cycle. */
    void gateFiresOncePerCycle() {
        List<RescuePort> w = workers(HistoryRunner.START_MILLIS);
        try {
            Map<String, String> waiting = Map.of("y.api.io/leaf-0", "waiting", "y.api.io/leaf-1", "waiting");
            w.get(0).create(RescueTask.meta(X).withGate(waiting)).orElseThrow();
            for (int cycle = 0; cycle < 2; cycle++) {
                for (String leaf : List.of("y.api.io/leaf-0", "y.api.io/leaf-0", "y.api.io/leaf-1")) {
                    w.get(0).create(RescueTask.meta(Map.of("y.api.io/object", leaf)).withGate(Map.of(leaf, "trigger")));
                }
                int fired = 0;
                for (Optional<RescueTask> t = w.get(1).search(); t.isPresent(); t = w.get(1).search()) {
                    if (t.get().core().containsKey(RescueTask.ORIGIN)) {
                        fired++;
                        assertThat(t.get().meta()).isEqualTo(X);
                    }
                    assertThat(w.get(1).delete(t.get())).isTrue();
                }
                assertThat(fired).as("emissions in cycle %d", cycle).isEqualTo(1);
                assertThat(w.get(0).list()).singleElement().satisfies(t -> assertThat(t.gate()).isEqualTo(waiting));
            }
        } finally {
            w.forEach(RescuePort::close);
        }
    }

    /** A task whose Root exists is neither created nor processed. */
    void rootSuppression() {
        List<RescuePort> w = workers(HistoryRunner.START_MILLIS);
        try {
            RescueTask y = RescueTask.meta(Map.of("y.api.io/object", "2345")).withRoot(X);
            assertThat(w.get(0).create(y)).as("created while its root is absent").isPresent();
            w.get(0).create(RescueTask.meta(X)).orElseThrow();
            assertThat(w.get(0).create(y)).as("not created while its root exists").isEmpty();
            RescueTask got = w.get(1).search().orElseThrow();
            assertThat(got.meta()).as("y is skipped (and discarded), x is given").isEqualTo(X);
            assertThat(w.get(1).list()).singleElement().satisfies(t -> assertThat(t.meta()).isEqualTo(X));
            assertThat(w.get(1).delete(got)).isTrue();
            assertThat(w.get(1).create(y)).isPresent();
        } finally {
            w.forEach(RescuePort::close);
        }
    }

    /** any: one worker; all: every worker once, then dropped after retention; uni: the addressed worker only. */
    void nodeDelivery() {
        List<RescuePort> w = workers(HistoryRunner.START_MILLIS);
        try {
            w.get(0).create(RescueTask.meta(X).withNode(Map.of(RescueTask.METHOD, "all"))).orElseThrow();
            for (RescuePort p : w) {
                assertThat(p.search()).as("all: %s once", p.worker()).isPresent();
                assertThat(p.search()).as("all: %s only once", p.worker()).isEmpty();
            }
            w.get(0).create(RescueTask.meta(X).withNode(Map.of(RescueTask.METHOD, "uni", RescueTask.WORKER, "w2")));
            assertThat(w.get(0).search()).isEmpty();
            assertThat(w.get(1).search()).isEmpty();
            RescueTask uni = w.get(2).search().orElseThrow();
            w.get(0).create(RescueTask.meta(X).withNode(Map.of(RescueTask.METHOD, "uni", RescueTask.WORKER, "w1")));
            clock.advance(subject.retention().toMillis());
            assertThat(w.get(0).expire()).as("broadcast and unaddressed uni dropped, lapsed uni owner revoked")
                    .isEqualTo(3);
            assertThat(w.get(0).list()).singleElement().satisfies(t -> {
                assertThat(t.object()).isEqualTo(uni.object());
                assertThat(t.core()).doesNotContainKey(RescueTask.WORKER);
            });
            assertThat(w.get(1).search()).as("uni: back to its addressee only").isEmpty();
            assertThat(w.get(2).search()).isPresent();
        } finally {
            w.forEach(RescuePort::close);
        }
    }

    /** Sync handed back on deletion is stored in the template and carried by the next tick's task. */
    void syncCarriedToNextTick() {
        List<RescuePort> w = workers(HistoryRunner.START_MILLIS);
        try {
            w.get(0).create(RescueTask.meta(X).withCron(Map.of(RescueTask.EVERY, "minute"))).orElseThrow();
            clock.advance(60_000);
            assertThat(w.get(0).ticker()).isEqualTo(1);
            RescueTask task = w.get(1).search().orElseThrow();
            assertThat(task.sync()).isEmpty();
            assertThat(w.get(1).delete(task.withSync(Map.of("x.api.io/latest", "1234")))).isTrue();
            clock.advance(60_000);
            assertThat(w.get(0).ticker()).isEqualTo(1);
            assertThat(w.get(2).search().orElseThrow().sync()).isEqualTo(Map.of("x.api.io/latest", "1234"));
        } finally {
            w.forEach(RescuePort::close);
        }
    }
}
