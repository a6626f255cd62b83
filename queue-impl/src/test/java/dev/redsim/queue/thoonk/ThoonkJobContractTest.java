package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ThoonkJobContract;
import dev.redsim.conformance.junit.AcrossTargets;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.RedisTarget;

/**
 * The thoonk job contract suite, with our implementation, on the simulator and on real Redis: scripted transitions
 * (the default) here, the WATCH/MULTI forms in {@link ThoonkOptimisticJobContractTest}.
 */
class ThoonkJobContractTest {
    ThoonkJobContract contract(RedisTarget target) {
        return new ThoonkJobContract(target, JedisThoonkJobQueue::new);
    }

    @AcrossTargets
    void generatedHistoriesFollowTheModel(RedisTarget target) {
        ThoonkJobContract.ModelReport report = contract(target).modelBased(PropertyCheck.runSeed(), 200);
        System.out.println("thoonk model on " + target.name() + ": " + report);
    }

    @AcrossTargets
    void noJobLostWhenAClientDiesAfterAnyCommand(RedisTarget target) {
        int crashes = contract(target).crashInjection();
        System.out.println("thoonk crash injection on " + target.name() + ": " + crashes + " crashes");
    }

    @AcrossTargets
    void racingWorkersNeverShareAJob(RedisTarget target) throws Exception {
        contract(target).racingWorkers(4, 60);
    }

    @AcrossTargets
    void staleOwnerIsFenced(RedisTarget target) {
        contract(target).staleOwnerIsFenced();
    }

    @AcrossTargets
    void onePassDuringAClaimRequeuesNothing(RedisTarget target) {
        contract(target).onePassDuringAClaimRequeuesNothing();
    }

    @AcrossTargets
    void twoPassesDuringAClaimRequeueNothing(RedisTarget target) {
        contract(target).twoPassesDuringAClaimRequeueNothing();
    }

    @AcrossTargets
    void aLostPopIsRequeuedAfterTheClaimTimeout(RedisTarget target) {
        contract(target).aLostPopIsRequeuedAfterTheClaimTimeout();
    }

    @AcrossTargets
    void subMillisecondGetDoesNotBlock(RedisTarget target) {
        contract(target).subMillisecondGetDoesNotBlock();
    }

    @AcrossTargets
    void emptyGetTimesOut(RedisTarget target) {
        contract(target).emptyGetTimesOut();
    }
}
