package dev.redsim.simulator.commands.geo;

import dev.redsim.simulator.keyspace.Bytes;

/** A member found by a search: where it is, its score, and its distance from the centre (meters, then unit). */
final class GeoPoint {
    final Bytes member;
    final double longitude;
    final double latitude;
    final double score;
    double distance;

    GeoPoint(Bytes member, double longitude, double latitude, double score, double distance) {
        this.member = member;
        this.longitude = longitude;
        this.latitude = latitude;
        this.score = score;
        this.distance = distance;
    }
}
