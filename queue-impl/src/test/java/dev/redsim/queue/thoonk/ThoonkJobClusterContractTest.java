package dev.redsim.queue.thoonk;

import dev.redsim.conformance.contracts.thoonk.ThoonkJobContract;
import dev.redsim.conformance.property.PropertyCheck;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.SharedClusters;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The thoonk job contract suite, unchanged, on 3-master clusters (simulated and real): every case's feed is named
 * with the hash tag of the target's node ("{thoonk}suite-<uuid>"), so its keys share that slot, and the scripts,
 * transactions and blocking gets run on that node, where the cluster refuses any key of another slot.
 */
class ThoonkJobClusterContractTest {
    private static final String TAG = "thoonk";

    static ClusterSlotTarget cluster(String which) {
        return which.equals("simulated") ? SharedClusters.simulated(TAG) : SharedClusters.reference(TAG);
    }

    ThoonkJobContract contract(String which) {
        return new ThoonkJobContract(cluster(which), JedisThoonkJobQueue::new);
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void generatedHistoriesFollowTheModel(String which) {
        ThoonkJobContract.ModelReport report = contract(which).modelBased(PropertyCheck.runSeed(), 200);
        System.out.println("thoonk model on " + which + " cluster: " + report);
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void noJobLostWhenAClientDiesAfterAnyCommand(String which) {
        int crashes = contract(which).crashInjection();
        System.out.println("thoonk crash injection on " + which + " cluster: " + crashes + " crashes");
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void racingWorkersNeverShareAJob(String which) throws Exception {
        contract(which).racingWorkers(4, 60);
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void staleOwnerIsFenced(String which) {
        contract(which).staleOwnerIsFenced();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void onePassDuringAClaimRequeuesNothing(String which) {
        contract(which).onePassDuringAClaimRequeuesNothing();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void twoPassesDuringAClaimRequeueNothing(String which) {
        contract(which).twoPassesDuringAClaimRequeueNothing();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void aLostPopIsRequeuedAfterTheClaimTimeout(String which) {
        contract(which).aLostPopIsRequeuedAfterTheClaimTimeout();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void subMillisecondGetDoesNotBlock(String which) {
        contract(which).subMillisecondGetDoesNotBlock();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void emptyGetTimesOut(String which) {
        contract(which).emptyGetTimesOut();
    }
}
