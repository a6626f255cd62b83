package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.CommandCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules ACL LIST writes rebuild exactly the command bitmap (and first arguments) they describe, for random
 * rule sequences: Redis checks this itself after describing a selector (and panics when it fails), because a
 * description that rebuilds different rights would change a user's rights across ACL SAVE and ACL LOAD.
 */
class SelectorTextTest {
    private final CommandIndex index = new CommandIndex(CommandCatalog.redis70());

    @Test
    void descriptionsRebuildTheBitmapTheyDescribe() throws AclRuleError {
        List<String> vocabulary = vocabulary();
        Random random = new Random(16);
        for (int run = 0; run < 2000; run++) {
            Selector selector = new Selector(index, 0);
            List<String> applied = new ArrayList<>();
            int rules = 1 + random.nextInt(8);
            for (int i = 0; i < rules; i++) {
                String rule = vocabulary.get(random.nextInt(vocabulary.size()));
                applied.add(rule);
                selector.apply(rule);
            }
            String description = SelectorText.commands(index, selector);
            Selector rebuilt = new Selector(index, 0);
            for (String rule : description.split(" ")) {
                rebuilt.apply(rule);
            }
            assertThat(rebuilt.allowed).as("bitmap of %s described as %s", applied, description)
                    .isEqualTo(selector.allowed);
            assertThat(rebuilt.firstArgs == null || rebuilt.firstArgs.isEmpty() ? null : rebuilt.firstArgs)
                    .as("first args of %s described as %s", applied, description)
                    .isEqualTo(withoutAllowed(selector));
            assertThat(SelectorText.commands(index, rebuilt)).isEqualTo(description);
        }
    }

    /** First arguments of commands whose bit is set are never consulted, and not written back. */
    private static Object withoutAllowed(Selector selector) {
        if (selector.firstArgs == null) {
            return null;
        }
        var kept = new java.util.HashMap<Integer, List<String>>();
        selector.firstArgs.forEach((id, args) -> {
            if (!selector.bit(id) && !args.isEmpty()) {
                kept.put(id, args);
            }
        });
        return kept.isEmpty() ? null : kept;
    }

    @Test
    void theDefaultUsersRulesAreAllCommands() throws AclRuleError {
        Selector selector = new Selector(index, 0);
        selector.apply("+@all");
        assertThat(SelectorText.commands(index, selector)).isEqualTo("+@all");
        selector.apply("-@all");
        assertThat(SelectorText.commands(index, selector)).isEqualTo("-@all");
        selector.apply("+@hash");
        assertThat(SelectorText.commands(index, selector)).isEqualTo("-@all +@hash");
        selector.apply("-hset");
        assertThat(SelectorText.commands(index, selector)).isEqualTo("-@all +@hash -hset");
    }

    private List<String> vocabulary() {
        List<String> rules = new ArrayList<>(List.of("+@all", "-@all", "allcommands", "nocommands",
                "+select|0", "+select|1", "+debug|object", "-select", "+config|get", "-config|set", "+client",
                "-client|kill", "+acl|whoami", "+get", "-get", "+set", "-flushall", "+keys", "-xadd", "+zadd"));
        for (String category : AclCategories.NAMES) {
            rules.add("+@" + category);
            rules.add("-@" + category);
        }
        return rules;
    }
}
