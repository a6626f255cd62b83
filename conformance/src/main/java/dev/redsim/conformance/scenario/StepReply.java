package dev.redsim.conformance.scenario;

import dev.redsim.conformance.resp.RespValue;

/**
 * A step of a run with the reference side's reply to it, as the comparison saw it: null when the step has no
 * compared reply (a SEND, an @blocked wait, an @ignore step).
 */
public record StepReply(Step step, RespValue reply) {
}
