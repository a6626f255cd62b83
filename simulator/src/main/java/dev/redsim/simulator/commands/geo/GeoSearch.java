package dev.redsim.simulator.commands.geo;

import dev.redsim.simulator.keyspace.ScoreRange;
import dev.redsim.simulator.keyspace.SortedSetValue;
import dev.redsim.simulator.keyspace.ZSkipList;

import java.util.ArrayList;
import java.util.List;

/**
 * The search itself (geo.c's membersOfAllNeighbors): each of the nine cells is a score range of the sorted set,
 * read in score order, keeping the members inside the shape. The cost is that of the ranges read, as in Redis.
 */
final class GeoSearch {
    private GeoSearch() {
    }

    /** The members inside the shape, cell by cell; with {@code limit} (ANY) it stops once that many are found. */
    static List<GeoPoint> find(SortedSetValue set, GeoShape shape, long limit) {
        List<GeoPoint> found = new ArrayList<>();
        GeoHash.Bits[] cells = GeoSearchArea.cells(shape);
        int lastProcessed = 0;
        for (int i = 0; i < cells.length; i++) {
            if (cells[i].isZero()) {
                continue;
            }
            // Huge radii make neighbours repeat: a cell equal to the one read just before is skipped (Redis never
            // compares with the centre cell, index 0, which its test "last_processed &&" leaves out).
            if (lastProcessed != 0 && cells[i].equals(cells[lastProcessed])) {
                continue;
            }
            if (!found.isEmpty() && limit != 0 && found.size() >= limit) {
                break;
            }
            readCell(set, cells[i], shape, found, limit);
            lastProcessed = i;
        }
        return found;
    }

    private static void readCell(SortedSetValue set, GeoHash.Bits cell, GeoShape shape, List<GeoPoint> found,
                                 long limit) {
        double min = cell.align52();
        double max = new GeoHash.Bits(cell.bits() + 1, cell.step()).align52();
        ScoreRange range = new ScoreRange(min, max, false, true);
        for (ZSkipList.Node n = set.firstIn(range); n != null && range.belowMax(n.score()); n = n.next()) {
            double[] position = GeoHash.position(n.score());
            Double distance = shape.distanceIfInside(position[0], position[1]);
            if (distance != null) {
                found.add(new GeoPoint(n.member(), position[0], position[1], n.score(), distance));
            }
            if (!found.isEmpty() && limit != 0 && found.size() >= limit) {
                break;
            }
        }
    }
}
