package dev.redsim.simulator.junit;

/** How long one simulator of {@link RedisSimulatorExtension} lives, and which tests share it. */
public enum SimulatorScope {
    /** A fresh simulator for every test, closed after it: tests may run concurrently with no shared state. */
    TEST,
    /**
     * One simulator for a test class and its {@code @Nested} classes, closed after the class; emptied before
     * each test. Tests of the class that JUnit runs concurrently take turns on it.
     */
    CLASS,
    /**
     * One simulator for the whole test run (every class that asks for it), closed when the run ends; emptied,
     * its clock and interceptor reset, before each test. Tests take turns on it. It starts with the options of
     * the first class that asks for it.
     */
    JVM
}
