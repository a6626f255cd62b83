package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.LatencyHistogram;
import dev.redsim.simulator.engine.LatencyMonitor;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.protocol.Reply;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** LATENCY LATEST / HISTORY / RESET / DOCTOR / GRAPH / HISTOGRAM / HELP over the engine's {@link LatencyMonitor}. */
public final class LatencyCommands implements CommandFamily {
    private static final String[] HELP = {
        "LATENCY <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "DOCTOR",
        "    Return a human readable latency analysis report.",
        "GRAPH <event>",
        "    Return an ASCII latency graph for the <event> class.",
        "HISTORY <event>",
        "    Return time-latency samples for the <event> class.",
        "LATEST",
        "    Return the latest latency samples for all events.",
        "RESET [<event> ...]",
        "    Reset latency data of one or more <event> classes.",
        "    (default: reset all data for all event classes)",
        "HISTOGRAM [COMMAND ...]",
        "    Return a cumulative distribution of latencies in the format of a histogram for the specified command "
                + "names.",
        "    If no commands are specified then all histograms are replied.",
        "HELP",
        "    Prints this help."};

    @Override
    public void register(CommandTable t) {
        t.handler("latency|latest", this::latest);
        t.handler("latency|history", this::history);
        t.handler("latency|reset", this::reset);
        t.handler("latency|doctor", ctx -> ctx.reply().verbatim(LatencyDoctor.report(ctx.engine())));
        t.handler("latency|graph", this::graph);
        t.handler("latency|histogram", this::histogram);
        t.handler("latency|help", ctx -> {
            ctx.reply().array(HELP.length);
            for (String line : HELP) {
                ctx.reply().simple(line);
            }
        });
    }

    /** Each event: its name, the time and latency of its latest sample, its all-time high. */
    private void latest(CommandContext ctx) {
        Reply r = ctx.reply();
        var events = ctx.engine().latency().events();
        r.array(events.size());
        for (Map.Entry<String, LatencyMonitor.Series> e : events) {
            long[] latest = e.getValue().latest();
            r.array(4);
            r.bulk(e.getKey());
            r.integer(latest[0]);
            r.integer(latest[1]);
            r.integer(e.getValue().allTimeHigh());
        }
    }

    /** The samples of one event, oldest first, as [time, latency] pairs; none for an unknown event. */
    private void history(CommandContext ctx) {
        LatencyMonitor.Series series = ctx.engine().latency().event(ctx.text(2));
        Reply r = ctx.reply();
        if (series == null) {
            r.array(0);
            return;
        }
        List<long[]> samples = series.samples();
        r.array(samples.size());
        for (long[] sample : samples) {
            r.array(2);
            r.integer(sample[0]);
            r.integer(sample[1]);
        }
    }

    /** RESET alone drops every event; with names, those events (names compared ignoring case). */
    private void reset(CommandContext ctx) {
        LatencyMonitor latency = ctx.engine().latency();
        if (ctx.argc() == 2) {
            ctx.reply().integer(latency.reset(null));
            return;
        }
        int resets = 0;
        for (int j = 2; j < ctx.argc(); j++) {
            resets += latency.reset(ctx.text(j));
        }
        ctx.reply().integer(resets);
    }

    private void graph(CommandContext ctx) {
        String event = ctx.text(2);
        LatencyMonitor.Series series = ctx.engine().latency().event(event);
        if (series == null) {
            throw new RedisError("ERR No samples available for event '" + event + "'");
        }
        ctx.reply().verbatim(LatencyGraph.render(event, series, ctx.now() / 1000));
    }

    /**
     * HISTOGRAM [command ...]: for each command that ran since latency tracking began (all of them, or those named;
     * a container names its subcommands too; unknown names are skipped), its calls and cumulative distribution.
     */
    private void histogram(CommandContext ctx) {
        LatencyMonitor latency = ctx.engine().latency();
        Map<String, LatencyHistogram> selected = new TreeMap<>();
        List<String> order = new ArrayList<>();
        if (ctx.argc() == 2) {
            order.addAll(latency.commandsWithHistograms());
        } else {
            for (int j = 2; j < ctx.argc(); j++) {
                CommandSpec spec = lookup(ctx.processor().table(), ctx.text(j));
                if (spec == null) {
                    continue;
                }
                order.add(spec.fullName());
                List<String> subcommands = new ArrayList<>(spec.subcommands().keySet());
                subcommands.sort(null);
                for (String sub : subcommands) {
                    order.add(spec.subcommands().get(sub).fullName());
                }
            }
        }
        List<String> withData = new ArrayList<>();
        for (String name : order) {
            LatencyHistogram histogram = latency.histogram(name);
            if (histogram != null) {
                withData.add(name);
                selected.put(name, histogram);
            }
        }
        Reply r = ctx.reply();
        r.map(withData.size());
        for (String name : withData) {
            LatencyHistogram histogram = selected.get(name);
            r.bulk(name);
            r.map(2);
            r.bulk("calls");
            r.integer(histogram.total());
            r.bulk("histogram_usec");
            List<LatencyHistogram.Bucket> buckets = histogram.cumulativeBuckets();
            r.map(buckets.size());
            for (LatencyHistogram.Bucket bucket : buckets) {
                r.integer(bucket.micros());
                r.integer(bucket.cumulativeCount());
            }
        }
    }

    /** lookupCommandBySds: "name" or "container|subcommand", case-insensitive; null when there is none. */
    private static CommandSpec lookup(CommandTable table, String name) {
        String[] parts = name.split("\\|", -1);
        if (parts.length > 2) {
            return null;
        }
        CommandSpec spec = table.lookup(parts[0].getBytes(StandardCharsets.UTF_8));
        if (spec == null || parts.length == 1) {
            return spec;
        }
        return spec.hasSubcommands() ? spec.subcommands().get(CommandTable.lowerAscii(
                parts[1].getBytes(StandardCharsets.UTF_8))) : null;
    }
}
