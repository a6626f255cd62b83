package dev.redsim.conformance.scenario;

import java.util.List;

/**
 * A named list of steps, read from a scenario file; each run starts from empty databases. {@code clusterMasters} is 0
 * for a scenario on one server, or the number of masters of the cluster its file's "@cluster N" header asks for, with
 * {@code clusterReplicas} replicas of each ("@cluster N replicas R"). {@code clusterFresh} ("@cluster N fresh"): each
 * run gets clusters of its own, started for it and closed after it, for a scenario that changes what an emptied
 * cluster keeps (config epochs, slot owners), which the clusters shared by the other files must not see.
 */
public record Scenario(String file, String name, int line, List<Step> steps, int clusterMasters, int clusterReplicas,
        boolean clusterFresh) {
    public Scenario(String file, String name, int line, List<Step> steps) {
        this(file, name, line, steps, 0, 0);
    }

    public Scenario(String file, String name, int line, List<Step> steps, int clusterMasters, int clusterReplicas) {
        this(file, name, line, steps, clusterMasters, clusterReplicas, false);
    }

    public Scenario(String file, String name, int line, List<Step> steps, int clusterMasters) {
        this(file, name, line, steps, clusterMasters, 0);
    }

    @Override
    public String toString() {
        return file + ": " + name;
    }
}
