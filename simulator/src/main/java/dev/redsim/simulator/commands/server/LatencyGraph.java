package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.engine.LatencyMonitor;

import java.util.List;

/**
 * LATENCY GRAPH's text: a header with the event's high, low and all-time high, a rule of 80 dashes, then a
 * sparkline of the samples, 80 per block, 4 rows high, filled ("_o#" from low to high, "|" below the top
 * character), with each sample's age ("12s", "3m", "1h", "2d") written downwards under its column, as Redis's
 * sparkline.c draws it.
 */
final class LatencyGraph {
    private static final int COLUMNS = 80;
    private static final int ROWS = 4;
    private static final char[] FILL = {'_', 'o', '#'};
    private static final int LABEL_MARGIN_TOP = 1;

    private LatencyGraph() {
    }

    static String render(String event, LatencyMonitor.Series series, long nowSeconds) {
        List<long[]> samples = series.samples();
        int n = samples.size();
        double[] values = new double[n];
        String[] labels = new String[n];
        long low = 0;
        long high = 0;
        for (int i = 0; i < n; i++) {
            long latency = samples.get(i)[1];
            if (i == 0) {
                low = latency;
                high = latency;
            } else {
                low = Math.min(low, latency);
                high = Math.max(high, latency);
            }
            values[i] = latency;
            labels[i] = age(nowSeconds - samples.get(i)[0]);
        }
        StringBuilder out = new StringBuilder();
        out.append(event).append(" - high ").append(high).append(" ms, low ").append(low)
                .append(" ms (all time high ").append(series.allTimeHigh()).append(" ms)\n");
        out.append("-".repeat(COLUMNS)).append('\n');
        for (int offset = 0; offset < n; offset += COLUMNS) {
            if (offset != 0) {
                out.append('\n');
            }
            renderRange(out, values, labels, low, high, offset, Math.min(COLUMNS, n - offset));
        }
        return out.toString();
    }

    private static String age(long elapsed) {
        if (elapsed < 60) {
            return elapsed + "s";
        } else if (elapsed < 3600) {
            return elapsed / 60 + "m";
        } else if (elapsed < 3600 * 24) {
            return elapsed / 3600 + "h";
        }
        return elapsed / (3600 * 24) + "d";
    }

    /** One block of columns: the sparkline rows, a blank row, then the labels one character per row. */
    private static void renderRange(StringBuilder out, double[] values, String[] labels, double min, double max,
                                    int offset, int length) {
        double range = max - min == 0 ? 1 : max - min;
        int steps = FILL.length * ROWS;
        char[] chars = new char[length];
        for (int row = 0; ; row++) {
            boolean more = false;
            java.util.Arrays.fill(chars, ' ');
            for (int j = 0; j < length; j++) {
                double relative = values[offset + j] - min;
                // C: (int) (relval*steps) / relmax, truncated again when stored in an int
                int step = (int) ((int) (relative * steps) / range);
                step = Math.max(0, Math.min(steps - 1, step));
                if (row < ROWS) {
                    int index = step - (ROWS - row - 1) * FILL.length;
                    more = true;
                    if (index >= 0 && index < FILL.length) {
                        chars[j] = FILL[index];
                    } else if (index >= FILL.length) {
                        chars[j] = '|';
                    }
                } else {
                    if (row - ROWS < LABEL_MARGIN_TOP) {
                        more = true; // the blank row between the line and its labels
                        break;
                    }
                    int at = row - ROWS - LABEL_MARGIN_TOP;
                    String label = labels[offset + j];
                    if (label.length() > at) {
                        more = true;
                        chars[j] = label.charAt(at);
                    }
                }
            }
            if (!more) {
                return;
            }
            out.append(chars).append('\n');
        }
    }
}
