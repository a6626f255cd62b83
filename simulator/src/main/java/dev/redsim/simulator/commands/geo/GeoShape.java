package dev.redsim.simulator.commands.geo;

/**
 * What a search covers: a circle (radius) or an axis-aligned box (width, height) around a centre, the sizes in
 * the unit the command named ({@code conversion} meters per unit), as Redis's GeoShape.
 */
record GeoShape(double longitude, double latitude, boolean box, double radius, double width, double height,
                double conversion) {

    static GeoShape circle(double[] centre, double radius, double conversion) {
        return new GeoShape(centre[0], centre[1], false, radius, 0, 0, conversion);
    }

    static GeoShape box(double[] centre, double width, double height, double conversion) {
        return new GeoShape(centre[0], centre[1], true, 0, width, height, conversion);
    }

    /**
     * The distance in meters from the centre of a point inside the shape; null when outside. (A NaN distance, from
     * a nearly antipodal point, counts as inside: Redis only excludes distances greater than the radius.)
     */
    Double distanceIfInside(double lon, double lat) {
        if (box) {
            return GeoDistance.inRectangle(width * conversion, height * conversion, longitude, latitude, lon, lat);
        }
        double distance = GeoDistance.distance(longitude, latitude, lon, lat);
        return distance > radius * conversion ? null : distance;
    }
}
