package dev.redsim.simulator.acl;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis's ACLMergeSelectorArguments: a selector may be spread over several arguments, "(+get" "~k*)", which are
 * joined with spaces into one "(+get ~k*)" rule. An argument that opens a parenthesis it does not close starts
 * a selector (dropping one still open); the next argument ending with ")" closes it.
 */
final class SelectorArguments {
    private SelectorArguments() {
    }

    /** The rules with selectors joined, or null when a selector is never closed. */
    static List<String> merge(List<String> rules) {
        return merge(rules, new int[1]);
    }

    /**
     * As {@link #merge(List)}; when a selector is never closed, {@code opening[0]} is the index of the rule that
     * opened it.
     */
    static List<String> merge(List<String> rules, int[] opening) {
        List<String> merged = new ArrayList<>();
        StringBuilder selector = null;
        int open = -1;
        for (int j = 0; j < rules.size(); j++) {
            String op = rules.get(j);
            if (op.startsWith("(") && !op.endsWith(")")) {
                selector = new StringBuilder(op);
                open = j;
                continue;
            }
            if (open != -1) {
                selector.append(' ').append(op);
                if (op.endsWith(")")) {
                    open = -1;
                    merged.add(selector.toString());
                }
                continue;
            }
            merged.add(op);
        }
        if (open != -1) {
            opening[0] = open;
            return null;
        }
        return merged;
    }
}
