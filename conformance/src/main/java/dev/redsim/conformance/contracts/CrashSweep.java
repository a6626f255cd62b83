package dev.redsim.conformance.contracts;

import dev.redsim.conformance.contracts.conveyor.CrashingProxy;
import dev.redsim.conformance.target.RedisTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The crash-injection loop the contract suites share: for every scenario, cut the operation's connection after
 * its 1st, 2nd, ... command until the operation completes uncut, and check the stored state after each cut.
 * The checks are the suite's; this class runs the sweep, the cut connection, and the count.
 */
public final class CrashSweep {
    private int crashes;

    /** What one cut run found: whether the cut happened, and what broke (null when the contract held). */
    public record Outcome(boolean tripped, String problem) {
    }

    /** Builds a scenario's world, runs its operation cut after {@code k} commands, and checks the result. */
    public interface CrashAt<S> {
        Outcome run(S scenario, int k) throws InterruptedException;
    }

    /** Runs the operation on a connection to this port (it opens and closes its client there). */
    public interface CutOperation {
        void run(int proxyPort);
    }

    /** @return the problems found, one per scenario at most (empty when the contract held) */
    public <S> List<String> run(List<S> scenarios, Function<S, String> name, int maxCommands, CrashAt<S> crashAt)
            throws InterruptedException {
        List<String> problems = new ArrayList<>();
        for (S scenario : scenarios) {
            for (int k = 1; k <= maxCommands; k++) {
                Outcome outcome = crashAt.run(scenario, k);
                if (outcome.problem() != null) {
                    problems.add(name.apply(scenario) + ", crash after command " + k + ": " + outcome.problem());
                    break;
                }
                if (!outcome.tripped()) {
                    break;
                }
                crashes++;
            }
        }
        return problems;
    }

    public int crashesInjected() {
        return crashes;
    }

    /**
     * Runs {@code operation} through a proxy to {@code target} that cuts the connection after {@code k} commands
     * and waits until the server has seen all it will see. The outcome says whether the cut happened; its problem
     * is set when the operation failed although nothing was cut.
     */
    public static Outcome cutAfter(RedisTarget target, int k, CutOperation operation) throws InterruptedException {
        try (CrashingProxy proxy = new CrashingProxy(target.host(), target.port(), k)) {
            try {
                operation.run(proxy.port());
            } catch (RuntimeException expectedWhenCut) {
                if (!proxy.tripped()) {
                    return new Outcome(false, "failed without a crash: " + expectedWhenCut);
                }
            }
            proxy.awaitServerDone();
            return new Outcome(proxy.tripped(), null);
        }
    }
}
