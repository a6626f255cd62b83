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
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The command table in a compact binary form: what a start needs of commands.json (COMMAND INFO's fields), without
 * COMMAND DOCS's and without a JSON scan. The build writes it next to the JSON from the JSON
 * ({@link CompactCatalogWriter}), so both always say the same; a start reads it in one pass over a few tens of
 * kilobytes, which the JSON's 224 KB scan took about fifty milliseconds of a first start to do (decision 0035).
 *
 * <p>Layout (big-endian, {@link DataOutputStream}'s): magic, format version, the string table (every distinct text,
 * each once: flags and categories repeat across commands), the Redis version's string, then the commands in name
 * order, each with its subcommands nested after it. A string is its index in the table, -1 for none.
 */
final class CompactCatalog {
    static final int MAGIC = 0x52534354; // "RSCT"
    static final int FORMAT = 1;

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
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeShort(strings.index(redisVersion));
        List<CommandDescription> all = new ArrayList<>();
        commands.forEach(all::add);
        out.writeShort(all.size());
        for (CommandDescription command : all) {
            writeCommand(out, strings, command);
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
        body.writeTo(file);
        file.flush();
        return whole.toByteArray();
    }

    private static void writeCommand(DataOutputStream out, Strings strings, CommandDescription c) throws IOException {
        out.writeShort(strings.index(c.name()));
        out.writeShort(c.arity());
        writeStrings(out, strings, c.flagNames());
        out.writeShort(c.firstKey());
        out.writeShort(c.lastKey());
        out.writeShort(c.keyStep());
        writeStrings(out, strings, c.aclCategories());
        writeStrings(out, strings, c.tips());
        out.writeByte(c.keySpecs().size());
        for (KeySpec spec : c.keySpecs()) {
            out.writeShort(strings.index(spec.notes()));
            writeStrings(out, strings, spec.flags());
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
            writeCommand(out, strings, sub);
        }
    }

    private static void writeStrings(DataOutputStream out, Strings strings, List<String> values) throws IOException {
        out.writeByte(values.size());
        for (String value : values) {
            out.writeShort(strings.index(value));
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
        String redisVersion = strings[in.readShort()];
        int count = in.readUnsignedShort();
        Map<String, CommandDescription> commands = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            CommandDescription command = readCommand(in, strings, null, docs);
            commands.put(command.name(), command);
        }
        return new CommandCatalog(redisVersion, commands);
    }

    private static CommandDescription readCommand(DataInputStream in, String[] strings, String container,
                                                  CatalogDocs docs) throws IOException {
        String name = strings[in.readShort()];
        int arity = in.readShort();
        List<String> flagNames = readStrings(in, strings);
        EnumSet<CommandFlag> flags = EnumSet.noneOf(CommandFlag.class);
        for (String flag : flagNames) {
            flags.add(CommandFlag.valueOf(flag.toUpperCase()));
        }
        int firstKey = in.readShort();
        int lastKey = in.readShort();
        int keyStep = in.readShort();
        List<String> aclCategories = readStrings(in, strings);
        List<String> tips = readStrings(in, strings);
        KeySpec[] keySpecs = new KeySpec[in.readUnsignedByte()];
        for (int i = 0; i < keySpecs.length; i++) {
            short notes = in.readShort();
            List<String> specFlags = readStrings(in, strings);
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
            CommandDescription sub = readCommand(in, strings, name, docs);
            subcommands.put(sub.name(), sub);
        }
        return new CommandDescription(name, container, arity, Collections.unmodifiableSet(flags), flagNames,
                firstKey, lastKey, keyStep, aclCategories, tips, List.of(keySpecs), docs,
                subcommandCount == 0 ? subcommands : Collections.unmodifiableMap(subcommands));
    }

    private static List<String> readStrings(DataInputStream in, String[] strings) throws IOException {
        int count = in.readUnsignedByte();
        if (count == 0) {
            return List.of();
        }
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = strings[in.readShort()];
        }
        return List.of(values);
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
}
