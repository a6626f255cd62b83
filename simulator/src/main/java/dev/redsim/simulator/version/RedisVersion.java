package dev.redsim.simulator.version;

/**
 * Everything that depends on the Redis version the simulator imitates: the version it reports (INFO, HELLO,
 * redis.REDIS_VERSION in scripts, the CLI's ready line) and the data sets generated from that version's
 * redis-server (the command table, the configuration defaults and how CONFIG SET checks each parameter). No
 * other source names a version: another version is another instance with its own resource folder.
 *
 * @param version        the full version string, as INFO's redis_version reports it
 * @param resourceFolder the class path folder of this version's data sets
 */
public record RedisVersion(String version, String resourceFolder) {
    /** The version the simulator imitates. */
    public static final RedisVersion IMITATED = new RedisVersion("7.0.15", "/dev/redsim/simulator/redis-7.0/");

    /** Redis's REDIS_VERSION_NUM: 0x00MMmmpp (redis.REDIS_VERSION_NUM in scripts). */
    public int number() {
        String[] parts = version.split("\\.");
        return (Integer.parseInt(parts[0]) << 16) | (Integer.parseInt(parts[1]) << 8) | Integer.parseInt(parts[2]);
    }

    /** "7.0": what a reference server must match (patch releases keep replies and the table alike). */
    public String majorMinor() {
        return version.substring(0, version.lastIndexOf('.'));
    }

    /** COMMAND INFO and COMMAND DOCS of every command (simulator/scripts/generate-command-table). */
    public String commandTable() {
        return resourceFolder + "commands.json";
    }

    /** Every configuration parameter with its default (CONFIG GET *). */
    public String configDefaults() {
        return resourceFolder + "config-defaults.tsv";
    }

    /** How CONFIG SET validates each parameter, probed from that redis-server. */
    public String configTypes() {
        return resourceFolder + "config-types.tsv";
    }
}
