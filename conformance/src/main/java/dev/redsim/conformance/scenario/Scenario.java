package dev.redsim.conformance.scenario;

import java.util.List;

/**
 * A named list of steps, read from a scenario file; each run starts from empty databases. {@code clusterMasters} is 0
 * for a scenario on one server, or the number of masters of the cluster its file's "@cluster N" header asks for, with
 * {@code clusterReplicas} replicas of each ("@cluster N replicas R").
 */
public record Scenario(String file, String name, int line, List<Step> steps, int clusterMasters, int clusterReplicas) {
    public Scenario(String file, String name, int line, List<Step> steps) {
        this(file, name, line, steps, 0, 0);
    }

    public Scenario(String file, String name, int line, List<Step> steps, int clusterMasters) {
        this(file, name, line, steps, clusterMasters, 0);
    }

    @Override
    public String toString() {
        return file + ": " + name;
    }
}
