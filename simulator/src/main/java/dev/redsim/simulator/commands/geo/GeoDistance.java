package dev.redsim.simulator.commands.geo;

/**
 * Distances on Redis's sphere (geohash_helper.c): the haversine great-circle formula with the Earth's quadratic
 * mean radius, and its shortcut along a meridian, evaluated operation for operation as Redis does.
 */
final class GeoDistance {
    static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double D_R = Math.PI / 180.0;

    private GeoDistance() {
    }

    static double degRad(double degrees) {
        return degrees * D_R;
    }

    static double radDeg(double radians) {
        return radians / D_R;
    }

    /** Along a meridian, asin(sin(x)) is x: the distance is the latitude difference (geohashGetLatDistance). */
    static double latitudeDistance(double lat1, double lat2) {
        return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2) - degRad(lat1));
    }

    /** The great-circle distance in meters (geohashGetDistance). */
    static double distance(double lon1, double lat1, double lon2, double lat2) {
        double lon1r = degRad(lon1);
        double lon2r = degRad(lon2);
        double v = GeoTrigonometry.sin((lon2r - lon1r) / 2);
        if (v == 0.0) {
            return latitudeDistance(lat1, lat2);
        }
        double lat1r = degRad(lat1);
        double lat2r = degRad(lat2);
        double u = GeoTrigonometry.sin((lat2r - lat1r) / 2);
        double a = u * u + GeoTrigonometry.cos(lat1r) * GeoTrigonometry.cos(lat2r) * v * v;
        return 2.0 * EARTH_RADIUS_IN_METERS * GeoTrigonometry.asin(Math.sqrt(a));
    }

    /**
     * Whether a point lies in an axis-aligned box around a centre, and then its distance from the centre; null
     * when outside (geohashGetDistanceIfInRectangle: latitude first, then longitude along the point's parallel).
     */
    static Double inRectangle(double widthMeters, double heightMeters, double lon1, double lat1, double lon2,
                              double lat2) {
        if (latitudeDistance(lat2, lat1) > heightMeters / 2) {
            return null;
        }
        if (distance(lon2, lat2, lon1, lat2) > widthMeters / 2) {
            return null;
        }
        return distance(lon1, lat1, lon2, lat2);
    }
}
