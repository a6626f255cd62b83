package dev.redsim.spring.sample;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.data.redis.repository.configuration.EnableRedisRepositories;

import static org.springframework.data.redis.core.RedisKeyValueAdapter.EnableKeyspaceEvents.ON_STARTUP;

/**
 * A small service as users write them: Spring Data Redis repositories whose entities expire (@TimeToLive, cleaned
 * up through keyspace events), a cached service, and Redisson's client from its starter.
 */
@SpringBootApplication
@EnableRedisRepositories(enableKeyspaceEvents = ON_STARTUP)
public class SampleApplication {
}
