package dev.redsim.simulator.commands.geo;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.engine.KeyspaceEvents;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.keyspace.Bytes;
import dev.redsim.simulator.keyspace.SortedSetValue;

import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;

/**
 * GEORADIUS, GEORADIUSBYMEMBER, their _RO forms, GEOSEARCH and GEOSEARCHSTORE: geo.c's georadiusGeneric, one
 * parser and one search for all six, with its options, checks and error texts in Redis's order. Results are
 * sorted as Redis sorts them: a full sort is glibc's qsort, a merge sort (stable), and a sort for the first COUNT
 * is Redis's pqsort, whose order of equal distances is its own.
 */
public final class GeoSearchCommands implements CommandFamily {
    private static final RedisError COUNT_NOT_POSITIVE = new RedisError("ERR COUNT must be > 0");
    private static final RedisError ANY_WITHOUT_COUNT = new RedisError("ERR the ANY argument requires COUNT argument");
    private static final RedisError BAD_MEMBER = new RedisError("ERR could not decode requested zset member");

    /** Which command: how its first arguments read and which options it takes. */
    private enum Form {
        RADIUS(1, false, false), RADIUS_RO(1, false, false), BY_MEMBER(1, true, false), BY_MEMBER_RO(1, true, false),
        SEARCH(1, false, true), SEARCH_STORE(2, false, true);

        final int sourceKey;
        final boolean byMember;
        final boolean search;

        Form(int sourceKey, boolean byMember, boolean search) {
            this.sourceKey = sourceKey;
            this.byMember = byMember;
            this.search = search;
        }

        boolean acceptsStore() {
            return this == RADIUS || this == BY_MEMBER;
        }
    }

    private static final Comparator<GeoPoint> NEAREST_FIRST = (a, b) ->
            a.distance > b.distance ? 1 : a.distance == b.distance ? 0 : -1;

    @Override
    public void register(CommandTable t) {
        t.handler("georadius", ctx -> search(ctx, Form.RADIUS));
        t.handler("georadius_ro", ctx -> search(ctx, Form.RADIUS_RO));
        t.handler("georadiusbymember", ctx -> search(ctx, Form.BY_MEMBER));
        t.handler("georadiusbymember_ro", ctx -> search(ctx, Form.BY_MEMBER_RO));
        t.handler("geosearch", ctx -> search(ctx, Form.SEARCH));
        t.handler("geosearchstore", ctx -> search(ctx, Form.SEARCH_STORE));
    }

    private void search(CommandContext ctx, Form form) {
        SortedSetValue set = GeoCommands.read(ctx, ctx.key(form.sourceKey));
        double[] centre = null;
        double[] radius = null;
        double[] box = null;
        int base;
        Bytes storeKey = null;
        boolean storeDistance = false;
        if (form == Form.RADIUS || form == Form.RADIUS_RO) {
            base = 6;
            centre = GeoArguments.position(ctx, 2);
            radius = GeoArguments.radius(ctx, 4);
        } else if (form.byMember) {
            base = 5;
            if (set != null) { // without a source key the arguments are parsed for their errors only
                centre = memberPosition(set, ctx.key(2));
                radius = GeoArguments.radius(ctx, 3);
            }
        } else {
            base = form == Form.SEARCH_STORE ? 3 : 2;
            if (form == Form.SEARCH_STORE) {
                storeKey = ctx.key(1);
            }
        }
        boolean withDist = false;
        boolean withHash = false;
        boolean withCoord = false;
        boolean fromMember = false;
        boolean fromLonLat = false;
        boolean any = false;
        int sort = 0; // 0 none, 1 ascending, -1 descending
        long count = 0;
        int remaining = ctx.argc() - base;
        for (int i = 0; i < remaining; i++) {
            int at = base + i;
            if (ctx.is(at, "withdist")) {
                withDist = true;
            } else if (ctx.is(at, "withhash")) {
                withHash = true;
            } else if (ctx.is(at, "withcoord")) {
                withCoord = true;
            } else if (ctx.is(at, "any")) {
                any = true;
            } else if (ctx.is(at, "asc")) {
                sort = 1;
            } else if (ctx.is(at, "desc")) {
                sort = -1;
            } else if (ctx.is(at, "count") && i + 1 < remaining) {
                count = ctx.longArg(at + 1);
                if (count <= 0) {
                    throw COUNT_NOT_POSITIVE;
                }
                i++;
            } else if ((ctx.is(at, "store") || ctx.is(at, "storedist")) && i + 1 < remaining
                    && form.acceptsStore()) {
                storeKey = ctx.key(at + 1);
                storeDistance = ctx.is(at, "storedist");
                i++;
            } else if (ctx.is(at, "storedist") && form == Form.SEARCH_STORE) {
                storeDistance = true;
            } else if (ctx.is(at, "frommember") && i + 1 < remaining && form.search && !fromLonLat) {
                if (set != null) {
                    centre = memberPosition(set, ctx.key(at + 1));
                }
                fromMember = true;
                i++;
            } else if (ctx.is(at, "fromlonlat") && i + 2 < remaining && form.search && !fromMember) {
                centre = GeoArguments.position(ctx, at + 1);
                fromLonLat = true;
                i += 2;
            } else if (ctx.is(at, "byradius") && i + 2 < remaining && form.search && box == null) {
                radius = GeoArguments.radius(ctx, at + 1);
                i += 2;
            } else if (ctx.is(at, "bybox") && i + 3 < remaining && form.search && radius == null) {
                box = GeoArguments.box(ctx, at + 1);
                i += 3;
            } else {
                throw RedisError.SYNTAX;
            }
        }
        if (storeKey != null && (withDist || withHash || withCoord)) {
            throw new RedisError("ERR " + (form == Form.SEARCH_STORE ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS")
                    + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options");
        }
        if (form.search && !(fromMember || fromLonLat)) {
            throw new RedisError("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + ctx.text(0));
        }
        if (form.search && radius == null && box == null) {
            throw new RedisError("ERR exactly one of BYRADIUS and BYBOX can be specified for " + ctx.text(0));
        }
        if (any && count == 0) {
            throw ANY_WITHOUT_COUNT;
        }
        if (set == null) {
            if (storeKey != null) {
                deleteStoreKey(ctx, storeKey);
                ctx.reply().integer(0);
            } else {
                ctx.reply().emptyArray();
            }
            return;
        }
        if (count != 0 && sort == 0 && !any) {
            sort = 1; // COUNT means the nearest ones
        }
        GeoShape shape = box != null ? GeoShape.box(centre, box[0], box[1], box[2])
                : GeoShape.circle(centre, radius[0], radius[1]);
        List<GeoPoint> found = GeoSearch.find(set, shape, any ? count : 0);
        if (found.isEmpty() && storeKey == null) {
            ctx.reply().emptyArray();
            return;
        }
        int returned = count == 0 || found.size() < count ? found.size() : (int) count;
        GeoPoint[] points = found.toArray(new GeoPoint[0]);
        if (sort != 0) {
            Comparator<GeoPoint> order = sort > 0 ? NEAREST_FIRST : NEAREST_FIRST.reversed();
            if (returned == points.length) {
                java.util.Arrays.sort(points, order); // stable, as glibc's merge sort
            } else {
                dev.redsim.simulator.util.PartialQuickSort.sort(points, order, 0, returned - 1);
            }
        }
        for (int i = 0; i < returned; i++) {
            points[i].distance /= shape.conversion();
        }
        if (storeKey == null) {
            reply(ctx, points, returned, withDist, withHash, withCoord);
        } else {
            store(ctx, form, storeKey, points, returned, storeDistance);
        }
    }

    private static double[] memberPosition(SortedSetValue set, Bytes member) {
        Double score = set.score(member);
        if (score == null) {
            throw BAD_MEMBER;
        }
        return GeoHash.position(score);
    }

    private static void reply(CommandContext ctx, GeoPoint[] points, int returned, boolean withDist, boolean withHash,
                              boolean withCoord) {
        int options = (withDist ? 1 : 0) + (withHash ? 1 : 0) + (withCoord ? 1 : 0);
        ctx.reply().array(returned);
        for (int i = 0; i < returned; i++) {
            GeoPoint p = points[i];
            if (options > 0) {
                ctx.reply().array(options + 1);
            }
            ctx.reply().bulk(p.member.bytes());
            if (withDist) {
                ctx.reply().bulk(GeoFormat.distance(p.distance).getBytes(StandardCharsets.US_ASCII));
            }
            if (withHash) {
                ctx.reply().integer(cLong(p.score));
            }
            if (withCoord) {
                ctx.reply().array(2);
                ctx.reply().doubleText(GeoFormat.coordinate(p.longitude));
                ctx.reply().doubleText(GeoFormat.coordinate(p.latitude));
            }
        }
    }

    /** C's (long long) conversion on x86-64: out of range and NaN give the "indefinite" minimum. */
    private static long cLong(double d) {
        return d >= 0x1p63 || d < -0x1p63 || Double.isNaN(d) ? Long.MIN_VALUE : (long) d;
    }

    /** The results as a sorted set under the store key (setKey), scored by geohash or by distance. */
    private static void store(CommandContext ctx, Form form, Bytes storeKey, GeoPoint[] points, int returned,
                              boolean storeDistance) {
        if (returned == 0) {
            deleteStoreKey(ctx, storeKey);
            ctx.reply().integer(0);
            return;
        }
        SortedSetValue result = SortedSetValue.forResult();
        for (int i = 0; i < returned; i++) {
            result.put(points[i].member, storeDistance ? points[i].distance : points[i].score);
        }
        result.encodeAsResult(ctx.engine().config());
        ctx.db().expireIfNeeded(storeKey); // setKey's lookupKeyWrite: a key past its TTL goes first ("expired")
        ctx.db().put(storeKey, result);
        ctx.signalModified(storeKey);
        ctx.notifyEvent(KeyspaceEvents.ZSET, form.search ? "geosearchstore" : "georadiusstore", storeKey);
        ctx.dirty(returned);
        ctx.reply().integer(returned);
    }

    private static void deleteStoreKey(CommandContext ctx, Bytes storeKey) {
        if (ctx.db().delete(storeKey)) {
            ctx.signalModified(storeKey);
            ctx.notifyEvent(KeyspaceEvents.GENERIC, "del", storeKey);
            ctx.dirty(1);
        }
    }
}
