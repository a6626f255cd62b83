package dev.redsim.simulator.commands.pubsub;

import dev.redsim.simulator.cluster.ClusterState;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.error.RedisError;
import dev.redsim.simulator.engine.PubSub;
import dev.redsim.simulator.engine.PubSub.Kind;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

/** The pub/sub commands of pubsub.c: (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PUBLISH, SPUBLISH and PUBSUB. */
public final class PubSubCommands implements CommandFamily {
    private final ClusterState cluster;

    /** @param cluster the server's cluster state: a node sends its PUBLISHes to the other nodes */
    public PubSubCommands(ClusterState cluster) {
        this.cluster = cluster;
    }

    @Override
    public void register(CommandTable t) {
        t.handler("subscribe", ctx -> subscribe(ctx, Kind.CHANNEL));
        t.handler("psubscribe", ctx -> subscribe(ctx, Kind.PATTERN));
        t.handler("ssubscribe", ctx -> subscribe(ctx, Kind.SHARD));
        t.handler("unsubscribe", ctx -> unsubscribe(ctx, Kind.CHANNEL));
        t.handler("punsubscribe", ctx -> unsubscribe(ctx, Kind.PATTERN));
        t.handler("sunsubscribe", ctx -> unsubscribe(ctx, Kind.SHARD));
        // A message also goes to the replicas (forceCommandPropagation), whose subscribers hear it too; a cluster
        // node sends it over the cluster bus instead, to every node (publishCommand).
        t.handler("publish", ctx -> {
            if (cluster.enabled()) {
                cluster.propagatePublish(ctx.arg(1), ctx.arg(2));
            } else {
                ctx.forcePropagation();
            }
            ctx.reply().integer(pubSub(ctx).publish(ctx.arg(1), ctx.arg(2)));
        });
        // SPUBLISH: on a cluster node to the other nodes of its shard over the bus (spublishCommand), else to replicas
        t.handler("spublish", ctx -> {
            if (cluster.enabled()) {
                cluster.propagateShardPublish(ctx.arg(1), ctx.arg(2));
            } else {
                ctx.forcePropagation();
            }
            ctx.reply().integer(pubSub(ctx).publishShard(ctx.arg(1), ctx.arg(2)));
        });
        registerIntrospection(t);
    }

    /** PUBSUB's subcommands (the introspection of channels and subscriptions). */
    private void registerIntrospection(CommandTable t) {
        t.handler("pubsub|numsub", ctx -> numsub(ctx, Kind.CHANNEL));
        t.handler("pubsub|numpat", ctx -> ctx.reply().integer(pubSub(ctx).patternCount()));
        t.handler("pubsub|shardnumsub", ctx -> numsub(ctx, Kind.SHARD));
        t.handler("pubsub|help", this::help);
        t.handler("pubsub|channels", ctx -> channels(ctx, Kind.CHANNEL));
        t.handler("pubsub|shardchannels", ctx -> channels(ctx, Kind.SHARD));
    }

    private static PubSub pubSub(CommandContext ctx) {
        return ctx.engine().pubSub();
    }

    private void subscribe(CommandContext ctx, Kind kind) {
        for (int i = 1; i < ctx.argc(); i++) {
            pubSub(ctx).subscribe(ctx.client(), kind, ctx.key(i));
        }
    }

    private void unsubscribe(CommandContext ctx, Kind kind) {
        if (ctx.argc() == 1) {
            pubSub(ctx).unsubscribeAll(ctx.client(), kind, true);
            return;
        }
        for (int i = 1; i < ctx.argc(); i++) {
            pubSub(ctx).unsubscribe(ctx.client(), kind, ctx.key(i), true);
        }
    }

    private void channels(CommandContext ctx, Kind kind) {
        if (ctx.argc() > 3) {
            throw syntaxError(ctx);
        }
        List<byte[]> names = pubSub(ctx).activeChannels(kind, ctx.argc() == 3 ? ctx.arg(2) : null);
        ctx.reply().bulkArray(names);
    }

    private void numsub(CommandContext ctx, Kind kind) {
        Reply r = ctx.reply();
        r.array((ctx.argc() - 2) * 2);
        for (int i = 2; i < ctx.argc(); i++) {
            r.bulk(ctx.arg(i));
            r.integer(pubSub(ctx).subscriberCount(kind, ctx.arg(i)));
        }
    }

    /** Redis's addReplySubcommandSyntaxError. */
    private static RedisError syntaxError(CommandContext ctx) {
        return ctx.subcommandSyntaxError();
    }

    private void help(CommandContext ctx) {
        String[] lines = {
            "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
            "CHANNELS [<pattern>]",
            "    Return the currently active channels matching a <pattern> (default: '*').",
            "NUMPAT",
            "    Return number of subscriptions to patterns.",
            "NUMSUB [<channel> ...]",
            "    Return the number of subscribers for the specified channels, excluding",
            "    pattern subscriptions(default: no channels).",
            "SHARDCHANNELS [<pattern>]",
            "    Return the currently active shard level channels matching a <pattern> (default: '*').",
            "SHARDNUMSUB [<shardchannel> ...]",
            "    Return the number of subscribers for the specified shard level channel(s)",
            "HELP",
            "    Prints this help."
        };
        Reply r = ctx.reply();
        r.array(lines.length);
        for (String line : lines) {
            r.simple(line);
        }
    }
}
