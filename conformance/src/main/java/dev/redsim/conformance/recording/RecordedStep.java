package dev.redsim.conformance.recording;

import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.scenario.Step;
import dev.redsim.conformance.scenario.StepReply;
import dev.redsim.conformance.scenario.StepText;

/**
 * One step of a recording: the step's canonical text ({@link StepText}) and the reference's reply, or null
 * when the step has no compared reply.
 */
public record RecordedStep(String text, RespValue reply) {
    /**
     * The step as recorded. An @sort reply is kept sorted: Redis seeds its hash function randomly at start, so
     * the raw order of a hashtable changes from one recording to the next while the comparison ignores it.
     */
    public static RecordedStep of(StepReply stepReply) {
        RespValue reply = stepReply.reply();
        if (reply != null && stepReply.step().compare() == Step.Compare.SORTED) {
            reply = reply.sorted();
        }
        return new RecordedStep(StepText.of(stepReply.step()), reply);
    }
}
