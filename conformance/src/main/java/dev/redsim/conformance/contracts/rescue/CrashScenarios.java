package dev.redsim.conformance.contracts.rescue;

import java.util.List;
import java.util.Map;

/** The operations the crash injection cuts short, each after a setup that makes it do its whole work. */
final class CrashScenarios {
    private static final Map<String, String> X = Map.of("x.api.io/object", "1234");
    private static final Map<String, String> Y = Map.of("y.api.io/object", "2345");
    private static final String LEAF = "y.api.io/leaf-";

    private CrashScenarios() {
    }

    static List<CrashInjection.Scenario> all(RescueSubject subject) {
        long lease = subject.lease().toMillis();
        long retention = subject.retention().toMillis();
        return List.of(
                new CrashInjection.Scenario("create checking a root", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X));
                    return null;
                }, (p, claim) -> p.create(RescueTask.meta(Y).withRoot(Map.of("x.api.io/object", "9")))),
                new CrashInjection.Scenario("search owning", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X));
                    p.create(RescueTask.meta(Y));
                    return null;
                }, (p, claim) -> p.search()),
                new CrashInjection.Scenario("search of a broadcast", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X).withNode(Map.of(RescueTask.METHOD, "all")));
                    return null;
                }, (p, claim) -> p.search()),
                new CrashInjection.Scenario("search discarding by root", "w0", (p, c) -> {
                    p.create(RescueTask.meta(Y).withRoot(X));
                    p.create(RescueTask.meta(X));
                    return null;
                }, (p, claim) -> p.search(), true),
                new CrashInjection.Scenario("delete firing a gate", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X).withGate(Map.of(LEAF + 0, "waiting", LEAF + 1, "waiting")));
                    p.create(RescueTask.meta(Y).withGate(Map.of(LEAF + 0, "trigger")));
                    p.delete(p.search().orElseThrow());
                    p.create(RescueTask.meta(Y).withGate(Map.of(LEAF + 1, "trigger")));
                    return p.search().orElseThrow();
                }, (p, claim) -> p.delete(claim)),
                new CrashInjection.Scenario("delete handing back sync", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X).withCron(Map.of(RescueTask.EVERY, "minute")));
                    c.advance(60_000);
                    p.ticker();
                    return p.search().orElseThrow();
                }, (p, claim) -> p.delete(claim.withSync(Map.of("x.api.io/latest", "1")))),
                new CrashInjection.Scenario("extend", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X));
                    RescueTask claim = p.search().orElseThrow();
                    c.advance(lease / 2);
                    return claim;
                }, (p, claim) -> p.extend(claim)),
                // Expire and Ticker commit one transaction per task: one task each, so "all or nothing" is exact.
                new CrashInjection.Scenario("expire revoking", "w0", (p, c) -> {
                    p.create(RescueTask.meta(Y).withNode(Map.of(RescueTask.METHOD, "uni", RescueTask.WORKER, "w0")));
                    p.search();
                    c.advance(lease);
                    return null;
                }, (p, claim) -> p.expire()),
                new CrashInjection.Scenario("expire dropping a broadcast", "w0", (p, c) -> {
                    p.create(RescueTask.meta(X).withNode(Map.of(RescueTask.METHOD, "all")));
                    c.advance(retention);
                    return null;
                }, (p, claim) -> p.expire()),
                new CrashInjection.Scenario("expire dropping an unaddressed uni", "w0", (p, c) -> {
                    p.create(RescueTask.meta(Y).withNode(Map.of(RescueTask.METHOD, "uni", RescueTask.WORKER, "w1")));
                    c.advance(retention);
                    return null;
                }, (p, claim) -> p.expire()),
                new CrashInjection.Scenario("ticker emitting", "w0", (p, c) -> {
                    p.create(RescueTask.meta(Y).withCron(Map.of(RescueTask.EVERY, "15 minutes")));
                    c.advance(900_000);
                    return null;
                }, (p, claim) -> p.ticker()),
                new CrashInjection.Scenario("delete of a template with bypass", "w0", (p, c) ->
                        p.create(RescueTask.meta(X).withGate(Map.of(LEAF + 0, "waiting"))).orElseThrow()
                                .withCoreLabel(RescueTask.BYPASS, "true"),
                        (p, claim) -> p.delete(claim)));
    }
}
