package dev.redsim.simulator.command;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The COMMAND DOCS part of a catalog (summaries, arguments, history: more than half of the resource), read from the
 * resource's text the first time something asks for it rather than at the first start (decision 0026). Immutable once
 * read, so it is shared like the catalog that owns it.
 */
final class CatalogDocs {
    /** The resource's JSON text, read when the docs are first asked for (a start reads the compact form). */
    private final Supplier<String> json;
    /** Every command's and subcommand's docs by full name ("get", "config|get"); null until first asked for. */
    private volatile Map<String, CommandDocs> byFullName;

    CatalogDocs(Supplier<String> json) {
        this.json = json;
    }

    CommandDocs of(String fullName) {
        Map<String, CommandDocs> docs = byFullName;
        if (docs == null) {
            docs = read();
        }
        return docs.get(fullName);
    }

    private synchronized Map<String, CommandDocs> read() {
        if (byFullName == null) {
            byFullName = CatalogReader.docs(json.get());
        }
        return byFullName;
    }
}
