package dev.redsim.simulator.commands.strings;

/** BITFIELD's OVERFLOW modes: what SET and INCRBY do with a result the field cannot hold. */
enum BitFieldOverflow {
    /** Keep the low bits (two's complement for signed fields). */
    WRAP,
    /** Clamp to the field's minimum or maximum. */
    SAT,
    /** Write nothing and answer a null for that operation. */
    FAIL
}
