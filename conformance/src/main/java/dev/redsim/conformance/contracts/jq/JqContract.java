package dev.redsim.conformance.contracts.jq;

import dev.redsim.conformance.contracts.conveyor.ManualClock;
import dev.redsim.conformance.property.Gen;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JQ contract suite (shared/contracts/jq-spec.ja.md). Extend it with a target and an implementation; tests
 * reach the implementation only through {@link JqPort}. Time is a manual clock: no test sleeps.
 * Sizes: -Dredsim.jq.histories (default 150), -Dredsim.seed to replay a reported run.
 */
public abstract class JqContract {
    private static final long START = JqHistoryRunner.START_MILLIS;

    protected abstract RedisTarget target();

    protected abstract JqSubject subject();

    private static int histories() {
        return Integer.getInteger("redsim.jq.histories", 150);
    }

    @Test
    void generatedHistoriesMatchTheModel() {
        JqHistoryRunner runner = new JqHistoryRunner(target(), subject());
        PropertyCheck<JqOp> check = new PropertyCheck<>(Gen.listOf(JqOp.gen(), 5, 60), runner::holds, 300);
        long seed = PropertyCheck.runSeed();
        PropertyCheck.Result<JqOp> result = check.run(seed, histories());
        String report = "";
        if (!result.passed()) {
            List<JqOp> shrunk = result.failure().shrunk();
            runner.holds(shrunk);
            report = "run seed " + seed + ", case seed " + result.failure().caseSeed() + "\nshrunk history "
                    + shrunk + "\n" + runner.failure();
        }
        System.out.printf("jq contract on %s: property 'model', %d histories, %d operations, %d steps run"
                        + " (seed %d)%n", target().name(), result.casesRun(), result.elementsRun(), runner.steps(),
                seed);
        System.out.printf("  outcomes: %s%n", runner.coverage());
        assertThat(result.passed()).as(report).isTrue();
    }

    /**
     * The delays come from the spec (base * 2^(n-1), capped; {@link JqBackoff}) with the subject's configured base
     * and cap, never from the implementation's own function: retry n is not claimable 1 ms before its delay and
     * is claimable at it. Enough retries to reach the cap, so a constant, linear or uncapped backoff fails.
     */
    @Test
    void retriesBackOffExponentiallyAndStopAtMaxRetryPlusOne() {
        JqSubject subject = subject();
        Duration base = subject.backoffBase();
        Duration cap = subject.backoffCap();
        assertThat(base).as("backoff base").isPositive();
        assertThat(cap).as("backoff cap").isGreaterThanOrEqualTo(base);
        int toCap = 1;
        while (JqBackoff.millis(base, cap, toCap) < cap.toMillis()) {
            toCap++;
        }
        JqHistoryRunner.flush(target());
        ManualClock clock = new ManualClock(START);
        try (JqPort port = subject.connect(target().host(), target().port(), clock)) {
            int maxRetry = toCap + 1;
            long id = port.enqueue(new JqJob("flaky", null, 0, maxRetry, true, 30_000));
            List<Long> gaps = new ArrayList<>();
            for (int attempt = 1; attempt <= maxRetry + 1; attempt++) {
                JqClaim claim = port.claim("w").orElseThrow(() -> new AssertionError("the retry was not claimable "
                        + "at its spec delay; gaps so far " + gaps));
                assertThat(claim.attempt()).isEqualTo(attempt);
                assertThat(port.fail(claim, true, "boom")).isTrue();
                if (attempt == maxRetry + 1) {
                    assertThat(port.takeResult(id)).as("the final failure is the kept result").isEqualTo("failure:other");
                }
                long wait = JqBackoff.millis(base, cap, attempt);
                clock.advance(wait - 1);
                Optional<JqClaim> early = port.claim("w");
                if (attempt <= maxRetry) {
                    assertThat(early).as("retry %d claimable before its spec delay %d ms", attempt, wait).isEmpty();
                    clock.advance(1);
                    gaps.add(wait);
                } else {
                    assertThat(early).as("no attempt after max_retry + 1").isEmpty();
                }
            }
            clock.advance(1_000_000);
            assertThat(port.claim("w")).isEmpty();
            assertThat(port.attempts(id)).isEqualTo(maxRetry + 1);
            assertThat(port.places().get("failed")).containsExactly(id);
            System.out.printf("jq contract on %s: backoff gaps %s ms%n", target().name(), gaps);
        }
    }

    /**
     * A constraint whose id contains "," frees its slot like any other: after the one
     * job it admits has finished, the next one is admitted and the bookkeeping is back to zero.
     */
    @Test
    void aConstraintIdWithACommaFreesItsSlot() {
        JqHistoryRunner.flush(target());
        try (JqPort port = subject().connect(target().host(), target().port(), new ManualClock(START))) {
            String id = "tenant,a";
            port.putConstraint(new JqConstraintSpec(id, "narrow", null, 0, 0, 1));
            long first = port.enqueue(new JqJob("narrow", null, 0, 0, false, 30_000));
            long second = port.enqueue(new JqJob("narrow", null, 0, 0, false, 30_000));
            JqClaim claim = port.claim("w").orElseThrow();
            assertThat(claim.id()).isEqualTo(first);
            assertThat(port.claim("w")).as("concurrency 1").isEmpty();
            assertThat(port.succeed(claim, "ok")).isTrue();
            assertThat(port.constraintUsage().get(id)).as("bookkeeping after the finish").containsExactly(0L, 0L);
            assertThat(port.claim("w")).as("the freed slot admits the next job").map(JqClaim::id).contains(second);
        }
    }

    @Test
    void shouldRetryFalseEndsTheJobAtOnce() {
        JqHistoryRunner.flush(target());
        try (JqPort port = subject().connect(target().host(), target().port(), new ManualClock(START))) {
            long id = port.enqueue(new JqJob("j", null, 0, 5, false, 30_000));
            assertThat(port.fail(port.claim("w").orElseThrow(), false, "fatal")).isTrue();
            assertThat(port.places().get("failed")).containsExactly(id);
            assertThat(port.attempts(id)).isEqualTo(1);
        }
    }

    @Test
    void aWorkerThatDoesNotAnswerInTimeIsTimedOutAndItsLateAnswerIsStale() {
        JqHistoryRunner.flush(target());
        ManualClock clock = new ManualClock(START);
        try (JqPort port = subject().connect(target().host(), target().port(), clock)) {
            long once = port.enqueue(new JqJob("slow", null, 0, 0, true, 2_000));
            long twice = port.enqueue(new JqJob("slow", null, 1, 1, false, 2_000));
            JqClaim first = port.claim("w").orElseThrow();
            JqClaim second = port.claim("w").orElseThrow();
            assertThat(List.of(first.id(), second.id())).containsExactly(once, twice);
            clock.advance(1_999);
            assertThat(port.expireOverdue()).isZero();
            clock.advance(1);
            assertThat(port.expireOverdue()).isEqualTo(2);
            assertThat(port.succeed(first, "late")).as("late answer").isFalse();
            assertThat(port.places().get("failed")).containsExactly(once);
            assertThat(port.takeResult(once)).isEqualTo("failure:timeout");
            assertThat(port.places().get("delayed")).containsExactly(twice);
            clock.advance(JqBackoff.millis(subject().backoffBase(), subject().backoffCap(), 1));
            JqClaim retry = port.claim("w").orElseThrow();
            assertThat(retry).isEqualTo(new JqClaim(twice, 2, "slow"));
            assertThat(port.succeed(retry, "ok")).isTrue();
        }
    }

    /**
     * Hosts whose own clocks are up to 30 s apart (more than the 20 s timeout): a host running ahead must not time
     * out the attempt a slower host runs, nor hand the job out again; the slow host's answer is accepted. On the
     * simulator a control moves the server's time past the timeout, and then the attempt is timed out (so the check
     * could fail); redis-server's time cannot be moved.
     */
    @Test
    void hostsWhoseClocksDisagreeBy30sNeitherTimeOutEarlyNorRunTwice() {
        JqHistoryRunner.flush(target());
        java.time.Clock utc = java.time.Clock.systemUTC();
        List<JqPort> ports = new java.util.ArrayList<>();
        try (JqPort slow = subject().connectOnHost(target().host(), target().port(), utc)) {
            long id = slow.enqueue(new JqJob("held", null, 0, 1, true, 20_000));
            JqClaim held = slow.claim("slow").orElseThrow();
            for (long skew : new long[] {30, -30, 15}) {
                JqPort other = subject().connectOnHost(target().host(), target().port(),
                    java.time.Clock.offset(utc, java.time.Duration.ofSeconds(skew)));
                ports.add(other);
                assertThat(other.expireOverdue()).as("timed out by a host %d s off", skew).isZero();
                assertThat(other.claim("skewed")).as("handed out again by a host %d s off", skew).isEmpty();
            }
            if (target() instanceof dev.redsim.conformance.target.SimulatorTarget simulator) {
                simulator.simulator().advanceTime(java.time.Duration.ofSeconds(21));
                try {
                    int expired = 0;
                    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
                    while (expired == 0 && System.nanoTime() < until) {
                        expired = ports.get(0).expireOverdue(); // its clock may extrapolate until it asks TIME again
                    }
                    assertThat(expired).as("timed out once the server's time passed it").isEqualTo(1);
                    assertThat(slow.succeed(held, "late")).as("the late answer").isFalse();
                } finally {
                    simulator.simulator().resetTime();
                }
            } else {
                assertThat(slow.succeed(held, "ok")).as("the slow host's answer").isTrue();
                assertThat(slow.takeResult(id)).isEqualTo("success:ok");
            }
        } finally {
            ports.forEach(JqPort::close);
        }
    }

    @Test
    void aKeptResultIsReadOnceAndIsGoneAfterRetention() {
        JqHistoryRunner.flush(target());
        ManualClock clock = new ManualClock(START);
        try (JqPort port = subject().connect(target().host(), target().port(), clock)) {
            long kept = port.enqueue(new JqJob("r", null, 0, 0, true, 30_000));
            long late = port.enqueue(new JqJob("r", null, 0, 0, true, 30_000));
            long dropped = port.enqueue(new JqJob("r", null, 0, 0, false, 30_000));
            assertThat(port.takeResult(kept)).as("before it ran").isNull();
            for (int i = 0; i < 3; i++) {
                JqClaim c = port.claim("w").orElseThrow();
                port.succeed(c, "v" + c.id());
            }
            assertThat(port.takeResult(kept)).isEqualTo("success:v" + kept);
            assertThat(port.takeResult(kept)).as("second read").isNull();
            assertThat(port.takeResult(dropped)).as("keep_result=false").isNull();
            clock.advance(subject().resultRetention().toMillis());
            assertThat(port.takeResult(late)).as("read at the end of retention").isNull();
        }
    }

    @Test
    void aRateConstraintIsNeverExceededInAnyWindow() throws Exception {
        JqRacingWorkers racing = new JqRacingWorkers(target(), subject());
        List<String> problems = racing.rate(4, 30, 10, 3, 1_000, 250);
        System.out.printf("jq contract on %s: rate 3/1000 ms, 4 racing workers, %d dispatches%n", target().name(),
                racing.claims.get());
        assertThat(problems).isEmpty();
    }

    @Test
    void aConcurrencyConstraintIsNeverExceeded() throws Exception {
        JqRacingWorkers racing = new JqRacingWorkers(target(), subject());
        List<String> problems = racing.concurrency(4, 40, 2);
        System.out.printf("jq contract on %s: concurrency 2 on name+argument, 4 racing workers, %d dispatches%n",
                target().name(), racing.claims.get());
        assertThat(problems).isEmpty();
    }

    /**
     * The scan for an eligible job has no fixed depth: a job behind more blocked jobs (their constraint full) than
     * any one page of the scan is still chosen, and once the constraint has room again its jobs go first.
     */
    @Test
    void anEligibleJobBehindManyBlockedJobsIsChosen() {
        JqHistoryRunner.flush(target());
        int blocked = 600;
        try (JqPort port = subject().connect(target().host(), target().port(), new ManualClock(START))) {
            port.putConstraint(new JqConstraintSpec("one-b", "b", null, 0, 0, 1));
            long holder = port.enqueue(JqJob.named("b"));
            JqClaim held = port.claim("w").orElseThrow();
            assertThat(held.id()).isEqualTo(holder);
            List<Long> waiting = new ArrayList<>();
            for (int i = 0; i < blocked; i++) {
                waiting.add(port.enqueue(JqJob.named("b")));
            }
            long behind = port.enqueue(JqJob.named("a"));
            assertThat(port.claim("w").map(JqClaim::id)).as("the one eligible job, behind %d blocked", blocked)
                    .hasValue(behind);
            assertThat(port.claim("w")).as("only blocked jobs are left").isEmpty();
            assertThat(port.succeed(held, "ok")).isTrue();
            assertThat(port.claim("w").map(JqClaim::id)).as("the first blocked job, now admitted")
                    .hasValue(waiting.get(0));
            assertThat(port.places().get("queued")).hasSize(blocked - 1);
        }
    }

    /** A worker that takes jobs and dies loses none: each times out, and is retried or failed, never stranded. */
    @Test
    void nothingIsLostWhenWorkersDieMidJob() {
        JqHistoryRunner.flush(target());
        ManualClock clock = new ManualClock(START);
        try (JqPort port = subject().connect(target().host(), target().port(), clock)) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(port.enqueue(new JqJob("j", null, i % 3, i % 2, false, 1_000)));
            }
            for (int i = 0; i < 10; i++) {
                port.claim("doomed").orElseThrow();
            }
            for (int round = 0; round < 10; round++) {
                clock.advance(1_000);
                port.expireOverdue();
                Optional<JqClaim> claim;
                while ((claim = port.claim("healthy")).isPresent()) {
                    port.succeed(claim.get(), "ok");
                }
            }
            List<Long> ended = new ArrayList<>(port.places().get("succeeded"));
            ended.addAll(port.places().get("failed"));
            assertThat(ended).containsExactlyInAnyOrderElementsOf(ids);
            for (long id : ids) {
                assertThat(port.attempts(id)).isLessThanOrEqualTo(2);
            }
        }
    }

    /** A master that dies after any single command of any operation loses no job (see {@link JqCrashInjection}). */
    @Test
    void aCrashAfterAnyCommandLosesNoJob() throws Exception {
        JqCrashInjection crashes = new JqCrashInjection(target(), subject());
        List<String> problems = crashes.run();
        System.out.printf("jq contract on %s: %d injected crashes over %d operations%n", target().name(),
                crashes.crashesInjected(), JqCrashInjection.scenarios().size());
        assertThat(problems).isEmpty();
    }
}
