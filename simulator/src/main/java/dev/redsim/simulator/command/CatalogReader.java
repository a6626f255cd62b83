package dev.redsim.simulator.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the command table JSON into {@link CommandDescription}s. The JSON keeps Redis's own field names
 * (COMMAND INFO's and COMMAND DOCS's), so a field here is the field Redis prints.
 */
final class CatalogReader {
    /** COMMAND DOCS's fields: left out of the first read and read with {@link #docs} when first asked for. */
    private static final Set<String> DOC_FIELDS = Set.of("summary", "since", "group", "complexity", "doc_flags",
            "deprecated_since", "replaced_by", "history", "arguments");

    private final Map<String, Object> root;
    private final CatalogDocs docs;

    @SuppressWarnings("unchecked")
    CatalogReader(String json, CatalogDocs docs) {
        this.root = (Map<String, Object>) TableJson.parse(json, DOC_FIELDS);
        this.docs = docs;
    }

    /** The docs of every command and subcommand of the resource, by full name ("get", "config|get"). */
    @SuppressWarnings("unchecked")
    static Map<String, CommandDocs> docs(String json) {
        Map<String, Object> root = (Map<String, Object>) TableJson.parse(json);
        Map<String, CommandDocs> result = new java.util.HashMap<>();
        object(root, "commands").forEach((name, entry) -> {
            result.put(name, docs(asObject(entry)));
            object(asObject(entry), "subcommands").forEach((subName, sub) -> result.put(subName, docs(asObject(sub))));
        });
        return java.util.Collections.unmodifiableMap(result);
    }

    String redisVersion() {
        return (String) root.get("redis_version");
    }

    Map<String, CommandDescription> commands() {
        Map<String, CommandDescription> result = new TreeMap<>();
        object(root, "commands").forEach((name, entry) -> result.put(name, command(name, null, asObject(entry))));
        return result;
    }

    private CommandDescription command(String fullName, String container, Map<String, Object> e) {
        String name = container == null ? fullName : fullName.substring(container.length() + 1);
        List<String> flagNames = strings(e, "flags");
        EnumSet<CommandFlag> flags = EnumSet.noneOf(CommandFlag.class);
        for (String flag : flagNames) {
            flags.add(CommandFlag.valueOf(flag.toUpperCase()));
        }
        List<KeySpec> keySpecs = new ArrayList<>();
        for (Object spec : list(e, "key_specs")) {
            keySpecs.add(keySpec(asObject(spec)));
        }
        Map<String, CommandDescription> subcommands = new TreeMap<>();
        object(e, "subcommands").forEach((subName, sub) ->
                subcommands.put(subName.substring(fullName.length() + 1), command(subName, fullName, asObject(sub))));
        return new CommandDescription(name, container, integer(e, "arity"), Collections.unmodifiableSet(flags),
                flagNames, integer(e, "first_key"), integer(e, "last_key"), integer(e, "key_step"),
                strings(e, "acl_categories"), strings(e, "tips"), List.copyOf(keySpecs), docs,
                Collections.unmodifiableMap(subcommands));
    }

    private static CommandDocs docs(Map<String, Object> e) {
        List<CommandDocs.HistoryEntry> history = new ArrayList<>();
        for (Object change : list(e, "history")) {
            List<?> pair = (List<?>) change;
            history.add(new CommandDocs.HistoryEntry((String) pair.get(0), (String) pair.get(1)));
        }
        return new CommandDocs((String) e.get("summary"), (String) e.get("since"), (String) e.get("group"),
                (String) e.get("complexity"), strings(e, "doc_flags"), (String) e.get("deprecated_since"),
                (String) e.get("replaced_by"), List.copyOf(history), arguments(e));
    }

    private static List<CommandArgument> arguments(Map<String, Object> e) {
        List<CommandArgument> result = new ArrayList<>();
        for (Object item : list(e, "arguments")) {
            Map<String, Object> a = asObject(item);
            Object keySpecIndex = a.get("key_spec_index");
            result.add(new CommandArgument((String) a.get("name"), (String) a.get("type"),
                    keySpecIndex == null ? -1 : ((Long) keySpecIndex).intValue(), (String) a.get("token"),
                    (String) a.get("summary"), (String) a.get("since"), (String) a.get("deprecated_since"),
                    strings(a, "flags"), arguments(a)));
        }
        return List.copyOf(result);
    }

    private static KeySpec keySpec(Map<String, Object> k) {
        Map<String, Object> begin = object(k, "begin_search");
        Map<String, Object> beginSpec = object(begin, "spec");
        KeySpec.BeginSearch start = switch ((String) begin.get("type")) {
            case "index" -> new KeySpec.AtIndex(integer(beginSpec, "index"));
            case "keyword" -> new KeySpec.AfterKeyword((String) beginSpec.get("keyword"),
                    integer(beginSpec, "startfrom"));
            default -> new KeySpec.UnknownStart();
        };
        Map<String, Object> find = object(k, "find_keys");
        Map<String, Object> findSpec = object(find, "spec");
        KeySpec.FindKeys count = switch ((String) find.get("type")) {
            case "range" -> new KeySpec.Range(integer(findSpec, "lastkey"), integer(findSpec, "keystep"),
                    integer(findSpec, "limit"));
            case "keynum" -> new KeySpec.Keynum(integer(findSpec, "keynumidx"), integer(findSpec, "firstkey"),
                    integer(findSpec, "keystep"));
            default -> new KeySpec.UnknownCount();
        };
        return new KeySpec((String) k.get("notes"), strings(k, "flags"), start, count);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> object(Map<String, Object> e, String field) {
        Object value = e.get(field);
        return value == null ? new LinkedHashMap<>() : asObject(value);
    }

    private static List<?> list(Map<String, Object> e, String field) {
        Object value = e.get(field);
        return value == null ? List.of() : (List<?>) value;
    }

    private static List<String> strings(Map<String, Object> e, String field) {
        List<String> result = new ArrayList<>();
        for (Object item : list(e, field)) {
            result.add((String) item);
        }
        return List.copyOf(result);
    }

    private static int integer(Map<String, Object> e, String field) {
        return ((Long) e.get(field)).intValue();
    }
}
