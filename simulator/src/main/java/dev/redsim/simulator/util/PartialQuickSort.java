package dev.redsim.simulator.util;

import java.util.Comparator;

/**
 * Redis's pqsort (pqsort.c): NetBSD's quicksort (Bentley and McIlroy's) that only finishes the parts of the array
 * overlapping the range [lrange, rrange]. Redis uses it for SORT ... LIMIT and geo searches with COUNT; it is not
 * stable, so equal elements come out in the order this exact algorithm leaves them, which is why it is ported
 * step for step rather than replaced by a library sort.
 */
public final class PartialQuickSort {
    private PartialQuickSort() {
    }

    /** Sorts {@code a} so that positions lrange..rrange (inclusive) hold what a full sort would put there. */
    public static <T> void sort(T[] a, Comparator<? super T> cmp, int lrange, int rrange) {
        sort(a, 0, a.length, cmp, lrange, rrange);
    }

    private static <T> void sort(T[] a, int base, int n, Comparator<? super T> cmp, int lrange, int rrange) {
        while (true) {
            boolean swapped = false;
            if (n < 7) {
                insertionSort(a, base, n, cmp);
                return;
            }
            int pm = base + n / 2;
            if (n > 7) {
                int pl = base;
                int pn = base + n - 1;
                if (n > 40) {
                    int d = n / 8;
                    pl = med3(a, pl, pl + d, pl + 2 * d, cmp);
                    pm = med3(a, pm - d, pm, pm + d, cmp);
                    pn = med3(a, pn - 2 * d, pn - d, pn, cmp);
                }
                pm = med3(a, pl, pm, pn, cmp);
            }
            swap(a, base, pm);
            int pa = base + 1;
            int pb = pa;
            int pc = base + n - 1;
            int pd = pc;
            while (true) {
                int result;
                while (pb <= pc && (result = cmp.compare(a[pb], a[base])) <= 0) {
                    if (result == 0) {
                        swapped = true;
                        swap(a, pa, pb);
                        pa++;
                    }
                    pb++;
                }
                while (pb <= pc && (result = cmp.compare(a[pc], a[base])) >= 0) {
                    if (result == 0) {
                        swapped = true;
                        swap(a, pc, pd);
                        pd--;
                    }
                    pc--;
                }
                if (pb > pc) {
                    break;
                }
                swap(a, pb, pc);
                swapped = true;
                pb++;
                pc--;
            }
            if (!swapped) { // already partitioned without a single exchange: insertion sort finishes it
                insertionSort(a, base, n, cmp);
                return;
            }
            int pn = base + n;
            int r = Math.min(pa - base, pb - pa);
            vecswap(a, base, pb - r, r);
            r = Math.min(pd - pc, pn - pd - 1);
            vecswap(a, pb, pn - r, r);
            if ((r = pb - pa) > 1 && overlaps(base, r, lrange, rrange)) {
                sort(a, base, r, cmp, lrange, rrange);
            }
            if ((r = pd - pc) > 1) {
                base = pn - r;
                n = r;
                if (overlaps(base, n, lrange, rrange)) {
                    continue; // iterate rather than recurse, as the C does
                }
            }
            return;
        }
    }

    private static boolean overlaps(int start, int count, int lrange, int rrange) {
        return !(rrange < start || lrange > start + count - 1);
    }

    private static <T> void insertionSort(T[] a, int base, int n, Comparator<? super T> cmp) {
        for (int pm = base + 1; pm < base + n; pm++) {
            for (int pl = pm; pl > base && cmp.compare(a[pl - 1], a[pl]) > 0; pl--) {
                swap(a, pl, pl - 1);
            }
        }
    }

    private static <T> int med3(T[] a, int x, int y, int z, Comparator<? super T> cmp) {
        return cmp.compare(a[x], a[y]) < 0
                ? (cmp.compare(a[y], a[z]) < 0 ? y : (cmp.compare(a[x], a[z]) < 0 ? z : x))
                : (cmp.compare(a[y], a[z]) > 0 ? y : (cmp.compare(a[x], a[z]) < 0 ? x : z));
    }

    private static <T> void swap(T[] a, int i, int j) {
        T t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static <T> void vecswap(T[] a, int i, int j, int n) {
        for (int k = 0; k < n; k++) {
            swap(a, i + k, j + k);
        }
    }
}
