package dev.redsim.simulator.commands.geo;

/**
 * The nine cells a search reads (geohash_helper.c's geohashCalculateAreasByShapeWGS84): the centre's cell at a
 * precision estimated from the search radius, and its eight neighbours, some dropped when the shape's bounding
 * box cannot reach them. A cell is then one score range of the sorted set.
 */
final class GeoSearchArea {
    private static final double MERCATOR_MAX = 20037726.37;

    private GeoSearchArea() {
    }

    /** The cells to search, centre first, then N, S, E, W, NE, NW, SE, SW; dropped neighbours are zero cells. */
    static GeoHash.Bits[] cells(GeoShape shape) {
        double[] bounds = boundingBox(shape);
        double minLon = bounds[0];
        double minLat = bounds[1];
        double maxLon = bounds[2];
        double maxLat = bounds[3];
        double longitude = shape.longitude();
        double latitude = shape.latitude();
        double radiusMeters = shape.box()
                ? Math.sqrt((shape.width() / 2) * (shape.width() / 2) + (shape.height() / 2) * (shape.height() / 2))
                : shape.radius();
        radiusMeters *= shape.conversion();

        int steps = estimateSteps(radiusMeters, latitude);
        GeoHash.Bits hash = GeoHash.encodeWgs84(longitude, latitude, steps);
        GeoHash.Bits[] neighbours = GeoHash.neighbours(hash);
        GeoHash.Area area = GeoHash.decode(hash);

        // A neighbour too close to the search area to cover it: one bit less, cells twice as big.
        boolean decrease = GeoHash.decode(neighbours[0]).latMax() < maxLat
                || GeoHash.decode(neighbours[1]).latMin() > minLat
                || GeoHash.decode(neighbours[2]).lonMax() < maxLon
                || GeoHash.decode(neighbours[3]).lonMin() > minLon;
        if (steps > 1 && decrease) {
            steps--;
            hash = GeoHash.encodeWgs84(longitude, latitude, steps);
            neighbours = GeoHash.neighbours(hash);
            area = GeoHash.decode(hash);
        }
        if (steps >= 2) {
            if (area.latMin() < minLat) {
                zero(neighbours, 1, 6, 7); // south, south-east, south-west
            }
            if (area.latMax() > maxLat) {
                zero(neighbours, 0, 4, 5); // north, north-east, north-west
            }
            if (area.lonMin() < minLon) {
                zero(neighbours, 3, 7, 5); // west, south-west, north-west
            }
            if (area.lonMax() > maxLon) {
                zero(neighbours, 2, 6, 4); // east, south-east, north-east
            }
        }
        GeoHash.Bits[] cells = new GeoHash.Bits[9];
        cells[0] = hash;
        System.arraycopy(neighbours, 0, cells, 1, 8);
        return cells;
    }

    private static void zero(GeoHash.Bits[] neighbours, int... indexes) {
        for (int i : indexes) {
            neighbours[i] = GeoHash.Bits.ZERO;
        }
    }

    /** Bits per coordinate for cells about the size of the radius (geohashEstimateStepsByRadius). */
    static int estimateSteps(double rangeMeters, double latitude) {
        if (rangeMeters == 0) {
            return 26;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2; // make sure the range is included in most of the base cases
        // wider cells towards the poles
        if (latitude > 66 || latitude < -66) {
            step--;
            if (latitude > 80 || latitude < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(26, step));
    }

    /**
     * The shape's bounding box {minLon, minLat, maxLon, maxLat} (geohashBoundingBox): parallels are shorter
     * towards the poles, so the box is widest at the edge nearer the equator.
     */
    static double[] boundingBox(GeoShape shape) {
        double height = shape.conversion() * (shape.box() ? shape.height() / 2 : shape.radius());
        double width = shape.conversion() * (shape.box() ? shape.width() / 2 : shape.radius());
        double longitude = shape.longitude();
        double latitude = shape.latitude();
        double latDelta = GeoDistance.radDeg(height / GeoDistance.EARTH_RADIUS_IN_METERS);
        double longDeltaTop = GeoDistance.radDeg(width / GeoDistance.EARTH_RADIUS_IN_METERS
                / GeoTrigonometry.cos(GeoDistance.degRad(latitude + latDelta)));
        double longDeltaBottom = GeoDistance.radDeg(width / GeoDistance.EARTH_RADIUS_IN_METERS
                / GeoTrigonometry.cos(GeoDistance.degRad(latitude - latDelta)));
        boolean southern = latitude < 0;
        return new double[] {
                southern ? longitude - longDeltaBottom : longitude - longDeltaTop,
                latitude - latDelta,
                southern ? longitude + longDeltaBottom : longitude + longDeltaTop,
                latitude + latDelta};
    }
}
