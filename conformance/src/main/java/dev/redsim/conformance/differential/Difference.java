package dev.redsim.conformance.differential;

import dev.redsim.conformance.resp.RespValue;

import java.util.List;

/** The first reply of a history that differs between the reference and the subject. */
public record Difference(int index, Call call, RespValue expected, RespValue actual) {
    /** A report a person can act on: the history as redis-cli input, and both replies. */
    public static String report(List<Call> history, Difference d, long seed) {
        StringBuilder sb = new StringBuilder();
        sb.append("difference at command ").append(d.index() + 1).append(" of ").append(history.size())
                .append(" (replay: -Dredsim.replay=").append(seed).append(")\n");
        int clients = (int) history.stream().mapToInt(Call::client).distinct().count();
        for (int i = 0; i < history.size(); i++) {
            Call c = history.get(i);
            sb.append(clients > 1 ? "  [client " + c.client() + "] " : "  ").append(c.toCli());
            sb.append(i == d.index() ? "    <-- differs" : "").append('\n');
        }
        sb.append("  redis:     ").append(d.expected()).append('\n');
        sb.append("  simulator: ").append(d.actual()).append('\n');
        return sb.toString();
    }
}
