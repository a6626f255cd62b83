package dev.redsim.conformance.scenario;

import java.util.List;

/** A named list of steps, read from a scenario file; each run starts from empty databases. */
public record Scenario(String file, String name, int line, List<Step> steps) {
    @Override
    public String toString() {
        return file + ": " + name;
    }
}
