package dev.redsim.spring.sample;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

import java.util.concurrent.atomic.AtomicInteger;

/** An expensive lookup behind Spring's cache (RedisCacheManager, entries live 60 s: application.properties). */
@Service
public class PriceService {
    private final AtomicInteger computations = new AtomicInteger();

    @Cacheable("prices")
    public long priceInCents(String sku) {
        computations.incrementAndGet();
        return 100L * sku.length();
    }

    public int computations() {
        return computations.get();
    }
}
