package dev.redsim.conformance.differential;

import java.util.List;
import java.util.Optional;

/** Runs histories on a reference and a subject and finds the first reply that differs: two servers or two clusters. */
public interface HistoryRunner extends AutoCloseable {
    /** Runs one history from empty servers; empty when every reply matched. */
    Optional<Difference> run(List<Call> history);

    long commandsCompared();

    @Override
    void close();
}
