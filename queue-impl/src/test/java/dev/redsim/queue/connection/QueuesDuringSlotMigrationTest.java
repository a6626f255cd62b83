package dev.redsim.queue.connection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Racing workers while their queue's slot migrates (issue 19, decision 0023): the runs of {@link QueueRaces} with the
 * queue's hash slot moving to another master mid-run, key batch by key batch, on a simulated cluster
 * (RedisCluster.startSlotMigration) and a real 3-master cluster (CommandSlotMove: the commands redis-cli --cluster
 * reshard sends). Between batches the run waits until the two masters have refused some transition (ASK / TRYAGAIN /
 * a script's probe), so the migration and the work do interleave; then every key of the queue is on the new master.
 * Without RedisConnections.transition a producer's add fails and the workers' refused completions wait for lease
 * recovery; without the probes in Conveyor's claim script a claim on the migrating master (which runs there once
 * every key it declares is present: a dead letter from earlier makes that so) pops a job and then fails on its lease
 * key, and the job is lost; without the probes in JQ's enqueue script an enqueue on the migrating master takes an id
 * (INCR) and is refused at the job's hash, and the id is lost; without rescue's migration probe (tasks.lua) a batch
 * create writes its first tasks and is refused at the next one's hash, and the batch sent again creates them twice.
 */
class QueuesDuringSlotMigrationTest {
    private QueueRaces races;

    @AfterEach
    void closeAll() throws Exception {
        if (races != null) {
            races.close();
        }
    }

    private QueueRaces races(String which) {
        races = new QueueRaces(RaceCluster.start(which, 0), which);
        return races;
    }

    private RaceCluster cluster() {
        return races.cluster();
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void conveyorWorkersRacingThroughASlotMigrationRunEveryJobOnce(String which) throws Exception {
        races(which).conveyor(slot -> cluster().migration(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void thoonkWorkersRacingThroughASlotMigrationFinishEveryJobOnce(String which) throws Exception {
        races(which).thoonk(slot -> cluster().migration(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void jqWorkersRacingThroughASlotMigrationThroughTwoMastersFinishEveryJobOnce(String which) throws Exception {
        races(which).jq(slot -> cluster().migration(slot));
    }

    @ParameterizedTest(name = "{0} cluster")
    @ValueSource(strings = {"simulated", "redis"})
    void rescueWorkersRacingThroughASlotMigrationRunEveryTaskOnce(String which) throws Exception {
        races(which).rescue(slot -> cluster().migration(slot));
    }
}
