package dev.redsim.simulator.commands.sortedsets;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.Numbers;
import dev.redsim.simulator.keyspace.RedisValue;
import dev.redsim.simulator.keyspace.SetValue;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ZUNION, ZINTER, ZDIFF, their STORE forms and ZINTERCARD (Redis's zunionInterDiffGenericCommand): inputs may be
 * zsets or plain sets (members of a plain set score 1), missing keys are empty, other types are WRONGTYPE.
 */
final class SortedSetAlgebraCommands {
    private static final RedisError WEIGHT_NOT_FLOAT = new RedisError("ERR weight value is not a float");
    private static final RedisError LIMIT_NEGATIVE = new RedisError("ERR LIMIT can't be negative");

    enum Op { UNION, INTER, DIFF }

    enum Aggregate { SUM, MIN, MAX }

    /** One input: a zset, a plain set, or nothing (missing key), with its weight. */
    private static final class Source {
        final SortedSetValue zset;
        final SetValue set;
        double weight = 1;

        Source(RedisValue value) {
            this.zset = value instanceof SortedSetValue z ? z : null;
            this.set = value instanceof SetValue s ? s : null;
        }

        int size() {
            return zset != null ? zset.size() : set != null ? set.size() : 0;
        }

        /** The member's unweighted score, or null when absent. */
        Double score(Bytes member) {
            if (zset != null) {
                return zset.score(member);
            }
            return set != null && set.contains(member.bytes()) ? 1.0 : null;
        }

        /** Visits every (member, unweighted score). */
        void forEach(java.util.function.ObjDoubleConsumer<Bytes> visitor) {
            if (zset != null) {
                for (ZSkipList.Node n = zset.first(); n != null; n = n.next()) {
                    visitor.accept(n.member(), n.score());
                }
            } else if (set != null) {
                set.forEach(m -> visitor.accept(Bytes.wrap(m), 1.0));
            }
        }
    }

    private SortedSetAlgebraCommands() {
    }

    /** ZUNION/ZINTER/ZDIFF numkeys key... [WEIGHTS] [AGGREGATE] [WITHSCORES]. */
    static void read(CommandContext ctx, Op op) {
        run(ctx, op, 1, null, false);
    }

    /** ZUNIONSTORE/ZINTERSTORE/ZDIFFSTORE dst numkeys key... [WEIGHTS] [AGGREGATE]. */
    static void store(CommandContext ctx, Op op) {
        run(ctx, op, 2, ctx.key(1), false);
    }

    /** ZINTERCARD numkeys key... [LIMIT limit]. */
    static void intercard(CommandContext ctx) {
        run(ctx, Op.INTER, 1, null, true);
    }

    private static void run(CommandContext ctx, Op op, int numkeysIndex, Bytes dst, boolean cardinalityOnly) {
        long numkeys = ctx.longArg(numkeysIndex);
        if (numkeys < 1) {
            throw new RedisError("ERR at least 1 input key is needed for '" + ctx.spec().name() + "' command");
        }
        if (numkeys > ctx.argc() - numkeysIndex - 1) {
            throw RedisError.SYNTAX;
        }
        int n = (int) numkeys;
        List<Source> sources = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Bytes key = ctx.key(numkeysIndex + 1 + i);
            RedisValue value = dst == null ? ctx.db().getForRead(key) : ctx.db().get(key);
            if (value != null && !(value instanceof SortedSetValue) && !(value instanceof SetValue)) {
                throw RedisError.WRONGTYPE;
            }
            sources.add(new Source(value));
        }
        Aggregate aggregate = Aggregate.SUM;
        boolean withScores = false;
        long limit = 0;
        int j = numkeysIndex + 1 + n;
        while (j < ctx.argc()) {
            int remaining = ctx.argc() - j;
            boolean weighted = op != Op.DIFF && !cardinalityOnly;
            if (weighted && remaining >= n + 1 && ctx.is(j, "weights")) {
                j++;
                for (int i = 0; i < n; i++, j++) {
                    Double w = Numbers.parseDouble(ctx.arg(j));
                    if (w == null) {
                        throw WEIGHT_NOT_FLOAT;
                    }
                    sources.get(i).weight = w;
                }
            } else if (weighted && remaining >= 2 && ctx.is(j, "aggregate")) {
                aggregate = parseAggregate(ctx, j + 1);
                j += 2;
            } else if (dst == null && !cardinalityOnly && ctx.is(j, "withscores")) {
                withScores = true;
                j++;
            } else if (cardinalityOnly && remaining >= 2 && ctx.is(j, "limit")) {
                Long l = Numbers.parseLongStrict(ctx.arg(j + 1));
                if (l == null || l < 0) {
                    throw LIMIT_NEGATIVE;
                }
                limit = l;
                j += 2;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        if (cardinalityOnly) {
            ctx.reply().integer(interCard(sources, limit));
            return;
        }
        SortedSetValue result = compute(op, sources, aggregate);
        if (dst != null) {
            String event = switch (op) {
                case UNION -> "zunionstore";
                case INTER -> "zinterstore";
                case DIFF -> "zdiffstore";
            };
            SortedSets.storeResult(ctx, dst, result, event);
            return;
        }
        List<ZSkipList.Node> nodes = new ArrayList<>(result.size());
        for (ZSkipList.Node node = result.first(); node != null; node = node.next()) {
            nodes.add(node);
        }
        SortedSets.replyEntries(ctx.reply(), nodes, withScores);
    }

    private static Aggregate parseAggregate(CommandContext ctx, int i) {
        if (ctx.is(i, "sum")) {
            return Aggregate.SUM;
        } else if (ctx.is(i, "min")) {
            return Aggregate.MIN;
        } else if (ctx.is(i, "max")) {
            return Aggregate.MAX;
        }
        throw RedisError.SYNTAX;
    }

    private static SortedSetValue compute(Op op, List<Source> sources, Aggregate aggregate) {
        if (op == Op.DIFF) {
            return diff(sources);
        }
        // Smallest inputs first, as Redis orders them; the intersection then walks the smallest one.
        List<Source> ordered = new ArrayList<>(sources);
        ordered.sort(Comparator.comparingInt(Source::size));
        Map<Bytes, double[]> scores = op == Op.UNION ? union(ordered, aggregate) : inter(ordered, aggregate);
        SortedSetValue result = SortedSetValue.forResult();
        for (Map.Entry<Bytes, double[]> e : scores.entrySet()) {
            result.put(e.getKey(), e.getValue()[0]);
        }
        return result;
    }

    /** weight * score, where NaN (0 * inf) counts as 0 as in Redis. */
    private static double weighted(double weight, double score) {
        double value = weight * score;
        return Double.isNaN(value) ? 0 : value;
    }

    private static double combine(Aggregate aggregate, double current, double value) {
        return switch (aggregate) {
            case SUM -> {
                double sum = current + value;
                yield Double.isNaN(sum) ? 0 : sum; // inf + -inf
            }
            case MIN -> Math.min(current, value);
            case MAX -> Math.max(current, value);
        };
    }

    private static Map<Bytes, double[]> union(List<Source> sources, Aggregate aggregate) {
        Map<Bytes, double[]> scores = new HashMap<>();
        for (Source source : sources) {
            source.forEach((member, score) -> {
                double value = weighted(source.weight, score);
                double[] current = scores.get(member);
                if (current == null) {
                    scores.put(member, new double[] {value});
                } else {
                    current[0] = combine(aggregate, current[0], value);
                }
            });
        }
        return scores;
    }

    private static Map<Bytes, double[]> inter(List<Source> sources, Aggregate aggregate) {
        Map<Bytes, double[]> scores = new HashMap<>();
        Source smallest = sources.get(0);
        if (smallest.size() == 0) {
            return scores;
        }
        smallest.forEach((member, score) -> {
            double value = weighted(smallest.weight, score);
            for (int i = 1; i < sources.size(); i++) {
                Source other = sources.get(i);
                Double otherScore = other.score(member);
                if (otherScore == null) {
                    return;
                }
                value = combine(aggregate, value, weighted(other.weight, otherScore));
            }
            scores.put(member, new double[] {value});
        });
        return scores;
    }

    private static long interCard(List<Source> sources, long limit) {
        List<Source> ordered = new ArrayList<>(sources);
        ordered.sort(Comparator.comparingInt(Source::size));
        long[] count = {0};
        Source smallest = ordered.get(0);
        // The walk cannot stop early through forEach, so the limit is applied to the count.
        smallest.forEach((member, score) -> {
            if (limit > 0 && count[0] >= limit) {
                return;
            }
            for (int i = 1; i < ordered.size(); i++) {
                if (ordered.get(i).score(member) == null) {
                    return;
                }
            }
            count[0]++;
        });
        return count[0];
    }

    private static SortedSetValue diff(List<Source> sources) {
        SortedSetValue result = SortedSetValue.forResult();
        Source first = sources.get(0);
        first.forEach((member, score) -> {
            for (int i = 1; i < sources.size(); i++) {
                if (sources.get(i).score(member) != null) {
                    return;
                }
            }
            result.put(member, score);
        });
        return result;
    }
}
