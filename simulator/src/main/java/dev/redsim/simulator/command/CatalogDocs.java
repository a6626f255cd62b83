package dev.redsim.simulator.command;

import java.util.Map;

/**
 * The COMMAND DOCS part of a catalog (summaries, arguments, history: more than half of the resource), read from the
 * resource's text the first time something asks for it rather than at the first start (decision 0026). Immutable once
 * read, so it is shared like the catalog that owns it.
 */
final class CatalogDocs {
    /** The JSON resource, read when the docs are first asked for (a start reads the compact form); or its text. */
    private final String resource;
    private final String json;
    /** Every command's and subcommand's docs by full name ("get", "config|get"); null until first asked for. */
    private volatile Map<String, CommandDocs> byFullName;

    /** The docs of a JSON resource, read when first asked for. */
    CatalogDocs(String resource) {
        this(resource, null);
    }

    /** The docs of a JSON text already in memory. */
    static CatalogDocs ofText(String json) {
        return new CatalogDocs(null, json);
    }

    private CatalogDocs(String resource, String json) {
        this.resource = resource;
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
            byFullName = CatalogReader.docs(json != null ? json : CommandCatalog.text(resource));
        }
        return byFullName;
    }
}
