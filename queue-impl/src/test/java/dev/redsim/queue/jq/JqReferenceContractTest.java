package dev.redsim.queue.jq;

import dev.redsim.conformance.contracts.jq.JqContract;
import dev.redsim.conformance.contracts.jq.JqSubject;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;

/** The JQ contract suite, our implementation, a real redis-server. */
class JqReferenceContractTest extends JqContract {
    @Override
    protected RedisTarget target() {
        return SharedTargets.reference();
    }

    @Override
    protected JqSubject subject() {
        return new JedisJqSubject();
    }
}
