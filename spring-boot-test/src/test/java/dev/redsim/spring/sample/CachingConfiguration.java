package dev.redsim.spring.sample;

import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;

/** Caching on its own configuration class, so that test slices such as @DataRedisTest leave it out. */
@Configuration
@EnableCaching
public class CachingConfiguration {
}
