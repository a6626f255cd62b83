package dev.redsim.queue.thoonk;

import java.util.List;

/**
 * What one complete-and-claim-next call did ({@link Job#finishAndGet}): for each claim given, whether it was finished
 * (false: no longer held with that claim, nothing written for it), then the jobs claimed next, oldest first.
 */
public record FinishedAndClaimed(List<Boolean> finished, List<Claim> claims) {
    public FinishedAndClaimed {
        finished = List.copyOf(finished);
        claims = List.copyOf(claims);
    }
}
