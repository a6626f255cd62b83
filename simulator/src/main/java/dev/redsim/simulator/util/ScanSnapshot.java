package dev.redsim.simulator.util;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A collection's elements sorted by their {@link ScanCursor} position, built once per scan so that each
 * further call is a binary search plus COUNT steps instead of a sort of the whole collection.
 *
 * <p>Why a snapshot keeps SCAN's guarantee: it is rebuilt whenever any scan starts (cursor 0), so it always
 * holds every element present since the start of each scan still running; positions are a fixed hash, so a
 * cursor means the same thing in every snapshot. Elements removed since the snapshot are skipped by the
 * caller's liveness check; elements added since may be missed, which SCAN allows.
 */
public final class ScanSnapshot<T> {
    private final long[] positions;
    private final Object[] elements;

    private ScanSnapshot(long[] positions, Object[] elements) {
        this.positions = positions;
        this.elements = elements;
    }

    public static <T> ScanSnapshot<T> of(Collection<T> source, Function<T, byte[]> bytesOf) {
        int n = source.size();
        long[] keyed = new long[n];
        Object[] items = source.toArray();
        Integer[] order = new Integer[n];
        long[] pos = new long[n];
        for (int i = 0; i < n; i++) {
            @SuppressWarnings("unchecked")
            T item = (T) items[i];
            pos[i] = ScanCursor.position(bytesOf.apply(item));
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(pos[a], pos[b]));
        Object[] sorted = new Object[n];
        for (int i = 0; i < n; i++) {
            keyed[i] = pos[order[i]];
            sorted[i] = items[order[i]];
        }
        return new ScanSnapshot<>(keyed, sorted);
    }

    /**
     * Visits up to {@code count} positions from the cursor on, adding the elements still {@code alive} to
     * {@code out}; returns the next cursor (0 at the end). Elements sharing a position stay on one page.
     */
    @SuppressWarnings("unchecked")
    public long page(long cursor, long count, Predicate<T> alive, List<T> out) {
        int i = firstAtOrAfter(cursor);
        long visited = 0;
        while (i < positions.length && (visited < count || (i > 0 && positions[i] == positions[i - 1]))) {
            T item = (T) elements[i];
            if (alive.test(item)) {
                out.add(item);
            }
            visited++;
            i++;
        }
        return i < positions.length ? positions[i] : 0;
    }

    private int firstAtOrAfter(long cursor) {
        int lo = 0;
        int hi = positions.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(positions[mid], cursor) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
