package dev.redsim.simulator.command;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The command table in a compact binary form: what a start needs of commands.json (COMMAND INFO's fields), without
 * COMMAND DOCS's and without a JSON scan. The build writes it next to the JSON from the JSON
 * ({@link CompactCatalogWriter}), so both always say the same; a start reads it in one pass over a few tens of
 * kilobytes, which the JSON's 224 KB scan took about fifty milliseconds of a first start to do (decision 0035).
 *
 * <p>Layout (big-endian, {@link DataOutputStream}'s): magic, format version, the string table (every distinct text,
 * each once), the list table (every distinct list of strings, each once: most commands share their flags', categories'
 * and key specs' lists with others, so a start makes each list, and each set of flags, once), the Redis version's
 * string, then the commands in name order, each with its subcommands nested after it. A string is its index in the
 * string table (-1 for none), a list its index in the list table.
 */
final class CompactCatalog {
    static final int MAGIC = 0x52534354; // "RSCT"
    static final int FORMAT = 2;

    private static final int BEGIN_INDEX = 0;
    private static final int BEGIN_KEYWORD = 1;
    private static final int BEGIN_UNKNOWN = 2;
    private static final int FIND_RANGE = 0;
    private static final int FIND_KEYNUM = 1;
    private static final int FIND_UNKNOWN = 2;

    private CompactCatalog() {
    }

    /** The compact form of a catalog's COMMAND INFO fields. */
    static byte[] write(String redisVersion, Iterable<CommandDescription> commands) throws IOException {
        Strings strings = new Strings();
        Lists lists = new Lists(strings);
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeShort(strings.index(redisVersion));
        List<CommandDescription> all = new ArrayList<>();
        commands.forEach(all::add);
        out.writeShort(all.size());
        for (CommandDescription command : all) {
            writeCommand(out, strings, lists, command);
        }
        out.flush();
        java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
        DataOutputStream file = new DataOutputStream(whole);
        file.writeInt(MAGIC);
        file.writeInt(FORMAT);
        file.writeShort(strings.texts.size());
        for (String text : strings.texts) {
            file.writeUTF(text);
        }
        file.writeShort(lists.lists.size());
        for (List<String> list : lists.lists) {
            file.writeByte(list.size());
            for (String text : list) {
                file.writeShort(strings.index(text));
            }
        }
        body.writeTo(file);
        file.flush();
        return whole.toByteArray();
    }

    private static void writeCommand(DataOutputStream out, Strings strings, Lists lists, CommandDescription c)
            throws IOException {
        out.writeShort(strings.index(c.name()));
        out.writeShort(c.arity());
        out.writeShort(lists.index(c.flagNames()));
        out.writeShort(c.firstKey());
        out.writeShort(c.lastKey());
        out.writeShort(c.keyStep());
        out.writeShort(lists.index(c.aclCategories()));
        out.writeShort(lists.index(c.tips()));
        out.writeByte(c.keySpecs().size());
        for (KeySpec spec : c.keySpecs()) {
            out.writeShort(strings.index(spec.notes()));
            out.writeShort(lists.index(spec.flags()));
            if (spec.beginSearch() instanceof KeySpec.AtIndex at) {
                out.writeByte(BEGIN_INDEX);
                out.writeShort(at.index());
            } else if (spec.beginSearch() instanceof KeySpec.AfterKeyword after) {
                out.writeByte(BEGIN_KEYWORD);
                out.writeShort(strings.index(after.keyword()));
                out.writeShort(after.startFrom());
            } else {
                out.writeByte(BEGIN_UNKNOWN);
            }
            if (spec.findKeys() instanceof KeySpec.Range range) {
                out.writeByte(FIND_RANGE);
                out.writeShort(range.lastKey());
                out.writeShort(range.keyStep());
                out.writeShort(range.limit());
            } else if (spec.findKeys() instanceof KeySpec.Keynum keynum) {
                out.writeByte(FIND_KEYNUM);
                out.writeShort(keynum.keynumIndex());
                out.writeShort(keynum.firstKey());
                out.writeShort(keynum.keyStep());
            } else {
                out.writeByte(FIND_UNKNOWN);
            }
        }
        out.writeShort(c.subcommands().size());
        for (CommandDescription sub : c.subcommands().values()) {
            writeCommand(out, strings, lists, sub);
        }
    }

    /** The catalog's version and commands (top level, by name) from the compact form; docs come from {@code docs}. */
    static CommandCatalog read(byte[] bytes, CatalogDocs docs) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
            throw new IOException("not a compact command table of format " + FORMAT);
        }
        String[] strings = new String[in.readUnsignedShort()];
        for (int i = 0; i < strings.length; i++) {
            strings[i] = in.readUTF();
        }
        Tables tables = new Tables(strings, new List[in.readUnsignedShort()]);
        for (int i = 0; i < tables.lists.length; i++) {
            String[] items = new String[in.readUnsignedByte()];
            for (int j = 0; j < items.length; j++) {
                items[j] = strings[in.readShort()];
            }
            tables.lists[i] = List.of(items);
        }
        String redisVersion = strings[in.readShort()];
        int count = in.readUnsignedShort();
        Map<String, CommandDescription> commands = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            CommandDescription command = readCommand(in, tables, null, docs);
            commands.put(command.name(), command);
        }
        return new CommandCatalog(redisVersion, commands);
    }

    /** What the reader shares between commands: the strings, the lists, and each list's flags once made. */
    private static final class Tables {
        final String[] strings;
        final List<String>[] lists;
        final Set<CommandFlag>[] flags;

        @SuppressWarnings("unchecked")
        Tables(String[] strings, List<String>[] lists) {
            this.strings = strings;
            this.lists = lists;
            this.flags = new Set[lists.length];
        }

        Set<CommandFlag> flags(int list) {
            Set<CommandFlag> set = flags[list];
            if (set == null) {
                EnumSet<CommandFlag> made = EnumSet.noneOf(CommandFlag.class);
                for (String flag : lists[list]) {
                    made.add(CommandFlag.valueOf(flag.toUpperCase()));
                }
                set = Collections.unmodifiableSet(made);
                flags[list] = set;
            }
            return set;
        }
    }

    private static CommandDescription readCommand(DataInputStream in, Tables tables, String container,
                                                  CatalogDocs docs) throws IOException {
        String[] strings = tables.strings;
        String name = strings[in.readShort()];
        int arity = in.readShort();
        int flagList = in.readShort();
        int firstKey = in.readShort();
        int lastKey = in.readShort();
        int keyStep = in.readShort();
        List<String> aclCategories = tables.lists[in.readShort()];
        List<String> tips = tables.lists[in.readShort()];
        KeySpec[] keySpecs = new KeySpec[in.readUnsignedByte()];
        for (int i = 0; i < keySpecs.length; i++) {
            short notes = in.readShort();
            List<String> specFlags = tables.lists[in.readShort()];
            KeySpec.BeginSearch begin = switch (in.readUnsignedByte()) {
                case BEGIN_INDEX -> new KeySpec.AtIndex(in.readShort());
                case BEGIN_KEYWORD -> new KeySpec.AfterKeyword(strings[in.readShort()], in.readShort());
                case BEGIN_UNKNOWN -> new KeySpec.UnknownStart();
                default -> throw new IOException("unknown begin_search type");
            };
            KeySpec.FindKeys find = switch (in.readUnsignedByte()) {
                case FIND_RANGE -> new KeySpec.Range(in.readShort(), in.readShort(), in.readShort());
                case FIND_KEYNUM -> new KeySpec.Keynum(in.readShort(), in.readShort(), in.readShort());
                case FIND_UNKNOWN -> new KeySpec.UnknownCount();
                default -> throw new IOException("unknown find_keys type");
            };
            keySpecs[i] = new KeySpec(notes < 0 ? null : strings[notes], specFlags, begin, find);
        }
        int subcommandCount = in.readUnsignedShort();
        Map<String, CommandDescription> subcommands = subcommandCount == 0 ? Map.of() : new TreeMap<>();
        for (int i = 0; i < subcommandCount; i++) {
            CommandDescription sub = readCommand(in, tables, name, docs);
            subcommands.put(sub.name(), sub);
        }
        return new CommandDescription(name, container, arity, tables.flags(flagList), tables.lists[flagList],
                firstKey, lastKey, keyStep, aclCategories, tips, List.of(keySpecs), docs,
                subcommandCount == 0 ? subcommands : Collections.unmodifiableMap(subcommands));
    }

    /** The string table being written: each distinct text once, in first-use order. */
    private static final class Strings {
        final List<String> texts = new ArrayList<>();
        final Map<String, Integer> indexes = new HashMap<>();

        int index(String text) {
            if (text == null) {
                return -1;
            }
            Integer index = indexes.get(text);
            if (index == null) {
                index = texts.size();
                if (index > Short.MAX_VALUE) {
                    throw new IllegalStateException("more distinct texts than the compact form holds");
                }
                texts.add(text);
                indexes.put(text, index);
            }
            return index;
        }
    }

    /** The list table being written: each distinct list of strings once, in first-use order. */
    private static final class Lists {
        final List<List<String>> lists = new ArrayList<>();
        final Map<List<String>, Integer> indexes = new HashMap<>();
        /** The string table, which takes each new list's texts (it is written before the lists). */
        private final Strings strings;

        Lists(Strings strings) {
            this.strings = strings;
        }

        int index(List<String> list) {
            Integer index = indexes.get(list);
            if (index == null) {
                index = lists.size();
                if (list.size() > 255 || index > Short.MAX_VALUE) {
                    throw new IllegalStateException("a list longer, or more lists, than the compact form holds");
                }
                lists.add(list);
                indexes.put(list, index);
                list.forEach(strings::index);
            }
            return index;
        }
    }
}
