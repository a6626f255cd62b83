package dev.redsim.simulator.commands.geo;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.SortedSetValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * GEOADD, GEOHASH, GEOPOS and GEODIST (geo.c). A geo set is a sorted set whose scores are 52-bit geohashes: GEOADD
 * rewrites itself into ZADD, so every sorted-set command works on it and its replies, events and encodings are
 * ZADD's.
 */
public final class GeoCommands implements CommandFamily {
    private static final String GEOHASH_ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";

    @Override
    public void register(CommandTable t) {
        t.handler("geoadd", this::geoadd);
        t.handler("geohash", this::geohash);
        t.handler("geopos", this::geopos);
        t.handler("geodist", this::geodist);
    }

    private void geoadd(CommandContext ctx) {
        boolean xx = false;
        boolean nx = false;
        int first = 2;
        for (; first < ctx.argc(); first++) {
            if (ctx.is(first, "nx")) {
                nx = true;
            } else if (ctx.is(first, "xx")) {
                xx = true;
            } else if (!ctx.is(first, "ch")) {
                break; // CH is ZADD's to handle
            }
        }
        if ((ctx.argc() - first) % 3 != 0 || (xx && nx)) {
            throw RedisError.SYNTAX;
        }
        List<byte[]> zadd = new ArrayList<>();
        zadd.add("zadd".getBytes(StandardCharsets.US_ASCII));
        for (int i = 1; i < first; i++) {
            zadd.add(ctx.arg(i));
        }
        for (int i = first; i < ctx.argc(); i += 3) {
            double[] position = GeoArguments.position(ctx, i);
            long score = GeoHash.score(position[0], position[1]);
            zadd.add(Long.toString(score).getBytes(StandardCharsets.US_ASCII));
            zadd.add(ctx.arg(i + 2));
        }
        byte[][] zaddArgs = zadd.toArray(new byte[0][]);
        ctx.propagateAs(zaddArgs); // GEOADD replicates as the ZADD it became (replaceClientCommandVector)
        ctx.processor().table().lookup("zadd").handler().execute(ctx.withArgs(zaddArgs));
    }

    /** The geo set under a key for a read, null when absent; WRONGTYPE for other types. */
    static SortedSetValue read(CommandContext ctx, Bytes key) {
        return ctx.db().getForRead(key, SortedSetValue.class);
    }

    private void geohash(CommandContext ctx) {
        SortedSetValue set = read(ctx, ctx.key(1));
        ctx.reply().array(ctx.argc() - 2);
        for (int j = 2; j < ctx.argc(); j++) {
            Double score = set == null ? null : set.score(ctx.key(j));
            if (score == null) {
                ctx.reply().nullBulk();
                continue;
            }
            // Redis's cells span latitudes -85..85; the standard geohash spans -90..90: decode, then re-encode.
            double[] position = GeoHash.position(score);
            long bits = GeoHash.encode(-90, 90, position[0], position[1], GeoHash.STEP_MAX).bits();
            byte[] text = new byte[11];
            for (int i = 0; i < 11; i++) {
                // 52 bits make ten characters; the eleventh is always '0', as Redis has always answered
                int index = i == 10 ? 0 : (int) ((bits >>> (52 - (i + 1) * 5)) & 0x1f);
                text[i] = (byte) GEOHASH_ALPHABET.charAt(index);
            }
            ctx.reply().bulk(text);
        }
    }

    private void geopos(CommandContext ctx) {
        SortedSetValue set = read(ctx, ctx.key(1));
        ctx.reply().array(ctx.argc() - 2);
        for (int j = 2; j < ctx.argc(); j++) {
            Double score = set == null ? null : set.score(ctx.key(j));
            if (score == null) {
                ctx.reply().nullArray();
                continue;
            }
            double[] position = GeoHash.position(score);
            ctx.reply().array(2);
            ctx.reply().doubleText(GeoFormat.coordinate(position[0]));
            ctx.reply().doubleText(GeoFormat.coordinate(position[1]));
        }
    }

    private void geodist(CommandContext ctx) {
        double toMeters = 1;
        if (ctx.argc() == 5) {
            toMeters = GeoArguments.unit(ctx, 4);
        } else if (ctx.argc() > 5) {
            throw RedisError.SYNTAX;
        }
        SortedSetValue set = read(ctx, ctx.key(1));
        Double score1 = set == null ? null : set.score(ctx.key(2));
        Double score2 = set == null ? null : set.score(ctx.key(3));
        if (score1 == null || score2 == null) {
            ctx.reply().nullBulk();
            return;
        }
        double[] a = GeoHash.position(score1);
        double[] b = GeoHash.position(score2);
        double meters = GeoDistance.distance(a[0], a[1], b[0], b[1]);
        ctx.reply().bulk(GeoFormat.distance(meters / toMeters).getBytes(StandardCharsets.US_ASCII));
    }
}
