package dev.redsim.conformance.target;

import dev.redsim.simulator.RedisSimulator;

/** The in-process simulator as a target. */
public final class SimulatorTarget implements RedisTarget {
    private final RedisSimulator simulator;

    public SimulatorTarget() {
        this(RedisSimulator.start());
    }

    public SimulatorTarget(RedisSimulator simulator) {
        this.simulator = simulator;
    }

    public RedisSimulator simulator() {
        return simulator;
    }

    @Override
    public String name() {
        return "simulator";
    }

    @Override
    public String host() {
        return simulator.host();
    }

    @Override
    public int port() {
        return simulator.port();
    }

    @Override
    public void close() {
        simulator.close();
    }
}
