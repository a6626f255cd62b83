package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.target.RedisTarget;

/**
 * For every operation and every k, a client that dies after its k-th command of the operation (k = 0, 1, ...
 * until the operation completes). Then a fresh maintainer runs two passes more than the claim timeout apart
 * (an id popped by the dead client is requeued by the second), and the keys must show no job lost and none in two
 * places.
 */
final class CrashInjection {
    private final RedisTarget target;
    private final ThoonkJobQueueFactory factory;
    private final JobQueueSettings settings;

    CrashInjection(RedisTarget target, ThoonkJobQueueFactory factory, JobQueueSettings settings) {
        this.target = target;
        this.factory = factory;
        this.settings = settings;
    }

    /** @return how many crashes were injected */
    int runAll() {
        int crashes = 0;
        for (CrashCase crashCase : CrashCase.values()) {
            for (int k = 0; ; k++) {
                if (!crashAfter(crashCase, k)) {
                    break;
                }
                crashes++;
            }
        }
        return crashes;
    }

    /** @return true when the client was stopped, false when the operation completed within k commands */
    private boolean crashAfter(CrashCase crashCase, int k) {
        ManualClock clock = new ManualClock(1_700_000_000_000L);
        boolean crashed = false;
        try (FeedFixture fixture = new FeedFixture(target);
             ThoonkJobQueue maintainer = factory.open(target, fixture.feed, clock, settings, CommandHook.NONE)) {
            CrashCase.Setup setup = new CrashCase.Setup(clock, settings, fixture.inspector, fixture.feed);
            setup.prepare(maintainer);
            try (ThoonkJobQueue dying = factory.open(target, fixture.feed, clock, settings, sent -> {
                if (sent == k) {
                    throw new InjectedCrash(k);
                }
            })) {
                crashCase.operation.accept(dying, setup);
            } catch (InjectedCrash expected) {
                crashed = true;
            }
            maintainer.maintain();
            clock.advance(settings.claimTimeoutMillis() + 1);
            maintainer.maintain();
            JobState after = fixture.state();
            String where = crashCase + " stopped after " + k + " command(s): ";
            if (after.conservationViolation() != null) {
                throw new AssertionError(where + after.conservationViolation());
            }
            boolean aGone = !after.items().containsKey(setup.a);
            if (aGone && !crashCase.mayRemoveA || !after.items().containsKey(setup.b)
                || !after.items().containsKey(setup.c)) {
                throw new AssertionError(where + "a job was lost: " + after);
            }
            if (crashCase == CrashCase.FINISH && aGone != (after.finishes() == 1)) {
                throw new AssertionError(where + "finish half done: " + after);
            }
        }
        return crashed;
    }
}
