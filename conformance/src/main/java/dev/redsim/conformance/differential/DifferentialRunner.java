package dev.redsim.conformance.differential;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.target.RedisTarget;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs histories on a reference server and on the subject, call by call in the recorded order, and finds the
 * first reply that differs (after the declared normalisations). Both servers are flushed before each history;
 * connections are reused between histories and RESET first.
 */
public final class DifferentialRunner implements HistoryRunner {
    /** What a history starts from: no keys, no cached scripts, no function libraries. */
    private static final String[][] FLUSHES = {{"FLUSHALL"}, {"SCRIPT", "FLUSH"}, {"FUNCTION", "FLUSH"}};
    private final RedisTarget reference;
    private final RedisTarget subject;
    private final List<RespClient[]> clients = new ArrayList<>();
    private long commandsCompared;
    private long historiesRun;

    public DifferentialRunner(RedisTarget reference, RedisTarget subject) {
        this.reference = reference;
        this.subject = subject;
    }

    @Override
    public long commandsCompared() {
        return commandsCompared;
    }

    public long historiesRun() {
        return historiesRun;
    }

    /** Runs one history; empty when every reply matched. */
    @Override
    public Optional<Difference> run(List<Call> history) {
        historiesRun++;
        int needed = history.stream().mapToInt(Call::client).max().orElse(0) + 1;
        reset(needed);
        for (int i = 0; i < history.size(); i++) {
            Call call = history.get(i);
            RespClient[] pair = clients.get(call.client());
            RespValue expected = pair[0].call(call.args());
            RespValue actual = pair[1].call(call.args());
            commandsCompared++;
            if (!Comparisons.same(call, expected, actual)) {
                return Optional.of(new Difference(i, call, expected, actual));
            }
        }
        return Optional.empty();
    }

    private void reset(int needed) {
        while (clients.size() < needed) {
            clients.add(open());
        }
        for (int i = 0; i < clients.size(); i++) {
            try {
                // RESET leaves no transaction, watch, subscription or selected database behind
                clients.get(i)[0].call("RESET");
                clients.get(i)[1].call("RESET");
            } catch (UncheckedIOException closed) {
                clients.get(i)[0].close();
                clients.get(i)[1].close();
                clients.set(i, open());
            }
        }
        for (String[] flush : FLUSHES) {
            clients.get(0)[0].call(flush);
            clients.get(0)[1].call(flush);
        }
    }

    private RespClient[] open() {
        return new RespClient[] {new RespClient(reference.host(), reference.port()),
                new RespClient(subject.host(), subject.port())};
    }

    @Override
    public void close() {
        for (RespClient[] pair : clients) {
            pair[0].close();
            pair[1].close();
        }
        clients.clear();
    }
}
