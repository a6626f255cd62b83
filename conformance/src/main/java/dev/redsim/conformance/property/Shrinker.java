package dev.redsim.conformance.property;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Shrinks a failing sequence to a smaller one that still fails: first by removing chunks of halving size
 * (delta debugging), then single elements, until no removal keeps the failure. The result is 1-minimal: removing
 * any one element makes the failure go away.
 */
public final class Shrinker {
    private final int maxAttempts;
    private int attempts;

    public Shrinker(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** How many candidate sequences the last shrink tried. */
    public int attempts() {
        return attempts;
    }

    /** @param fails true when a candidate still shows the failure */
    public <T> List<T> shrink(List<T> failing, Predicate<List<T>> fails) {
        attempts = 0;
        List<T> current = new ArrayList<>(failing);
        int chunk = Math.max(1, current.size() / 2);
        while (attempts < maxAttempts) {
            boolean removed = false;
            for (int start = 0; start < current.size() && attempts < maxAttempts; ) {
                List<T> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                attempts++;
                if (!candidate.isEmpty() && fails.test(candidate)) {
                    current = candidate;
                    removed = true;
                } else {
                    start += chunk;
                }
            }
            if (chunk == 1 && !removed) {
                break;
            }
            if (!removed) {
                chunk = Math.max(1, chunk / 2);
            }
        }
        return current;
    }
}
