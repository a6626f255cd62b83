package dev.redsim.simulator.commands.geo;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.error.RedisError;

/** The argument forms geo commands share, with Redis's checks and error texts, in Redis's order. */
final class GeoArguments {
    private static final RedisError BAD_UNIT =
            new RedisError("ERR unsupported unit provided. please use M, KM, FT, MI");
    private static final RedisError NEGATIVE_RADIUS = new RedisError("ERR radius cannot be negative");
    private static final RedisError NEGATIVE_BOX = new RedisError("ERR height or width cannot be negative");

    private GeoArguments() {
    }

    /** Longitude then latitude, each a float, together inside Redis's ranges (extractLongLatOrReply). */
    static double[] position(CommandContext ctx, int at) {
        double longitude = ctx.doubleArg(at);
        double latitude = ctx.doubleArg(at + 1);
        if (longitude < GeoHash.LONG_MIN || longitude > GeoHash.LONG_MAX
                || latitude < GeoHash.LAT_MIN || latitude > GeoHash.LAT_MAX) {
            throw new RedisError("ERR invalid longitude,latitude pair " + GeoFormat.fixed(longitude, 6) + ","
                    + GeoFormat.fixed(latitude, 6));
        }
        return new double[] {longitude, latitude};
    }

    /** Meters per unit: m, km, ft, mi in any case (extractUnitOrReply). */
    static double unit(CommandContext ctx, int at) {
        if (ctx.is(at, "m")) {
            return 1;
        }
        if (ctx.is(at, "km")) {
            return 1000;
        }
        if (ctx.is(at, "ft")) {
            return 0.3048;
        }
        if (ctx.is(at, "mi")) {
            return 1609.34;
        }
        throw BAD_UNIT;
    }

    /** A radius and its unit: {radius, meters per unit} (extractDistanceOrReply). */
    static double[] radius(CommandContext ctx, int at) {
        double radius = number(ctx, at, "ERR need numeric radius");
        if (radius < 0) {
            throw NEGATIVE_RADIUS;
        }
        return new double[] {radius, unit(ctx, at + 1)};
    }

    /** Width, height and unit: {width, height, meters per unit} (extractBoxOrReply). */
    static double[] box(CommandContext ctx, int at) {
        double width = number(ctx, at, "ERR need numeric width");
        double height = number(ctx, at + 1, "ERR need numeric height");
        if (height < 0 || width < 0) {
            throw NEGATIVE_BOX;
        }
        return new double[] {width, height, unit(ctx, at + 2)};
    }

    private static double number(CommandContext ctx, int at, String error) {
        Double value = dev.redsim.simulator.keyspace.Numbers.parseDouble(ctx.arg(at));
        if (value == null) {
            throw new RedisError(error);
        }
        return value;
    }
}
