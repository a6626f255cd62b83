package dev.redsim.conformance.junit;

import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** Provides one invocation of an {@link AcrossTargets} test per selected target. */
public final class TargetsExtension implements TestTemplateInvocationContextProvider {
    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getRequiredTestMethod().isAnnotationPresent(AcrossTargets.class);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        List<TestTemplateInvocationContext> invocations = new ArrayList<>();
        for (String name : selected()) {
            Supplier<RedisTarget> target = switch (name) {
                case "simulator" -> SharedTargets::simulator;
                case "redis" -> SharedTargets::reference;
                default -> throw new IllegalArgumentException("unknown target '" + name + "' (simulator, redis)");
            };
            invocations.add(invocation(name, target));
        }
        return invocations.stream();
    }

    /** The selected target names, from -Dredsim.targets or REDSIM_TARGETS; both when unset. */
    static List<String> selected() {
        String value = System.getProperty("redsim.targets", System.getenv("REDSIM_TARGETS"));
        if (value == null || value.isBlank()) {
            return List.of("simulator", "redis");
        }
        List<String> names = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                names.add(part.trim());
            }
        }
        return names;
    }

    private static TestTemplateInvocationContext invocation(String name, Supplier<RedisTarget> target) {
        return new TestTemplateInvocationContext() {
            @Override
            public String getDisplayName(int invocationIndex) {
                return "[" + name + "]";
            }

            @Override
            public List<Extension> getAdditionalExtensions() {
                // The target is had before the test, not only as its parameter: a missing redis-server then skips
                // the invocation (or fails it in CI) as SharedTargets says; from a parameter resolver the skip
                // would be wrapped into a ParameterResolutionException, an error.
                BeforeEachCallback haveTarget = c -> target.get();
                return List.of(haveTarget, new ParameterResolver() {
                    @Override
                    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
                        return p.getParameter().getType() == RedisTarget.class;
                    }

                    @Override
                    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
                        return target.get();
                    }
                });
            }
        };
    }
}
