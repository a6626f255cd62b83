package dev.redsim.simulator.commands;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;
import dev.redsim.simulator.command.RedisError;
import dev.redsim.simulator.engine.PubSub;
import dev.redsim.simulator.engine.PubSub.Kind;
import dev.redsim.simulator.protocol.Reply;

import java.util.List;

import static dev.redsim.simulator.command.CommandSpec.command;
import static dev.redsim.simulator.command.CommandSpec.subcommand;

/** The pub/sub commands of pubsub.c: (P|S)SUBSCRIBE, (P|S)UNSUBSCRIBE, PUBLISH, SPUBLISH and PUBSUB. */
public final class PubSubCommands implements CommandFamily {
    private static final String SUBSCRIBING = "pubsub noscript loading stale";
    private static final String PUBLISHING = "pubsub loading stale fast";
    private static final String INTROSPECTION = "pubsub loading stale";

    @Override
    public void register(CommandTable t) {
        t.add(command("subscribe", -2).flags(SUBSCRIBING).group("pubsub").since("2.0.0")
                .summary("Listen for messages published to channels").handler(ctx -> subscribe(ctx, Kind.CHANNEL))
                .build());
        t.add(command("psubscribe", -2).flags(SUBSCRIBING).group("pubsub").since("2.0.0")
                .summary("Listen for messages published to channels matching patterns")
                .handler(ctx -> subscribe(ctx, Kind.PATTERN)).build());
        t.add(command("ssubscribe", -2).flags(SUBSCRIBING).keys(1, -1, 1).keySpecFlags("not_key").group("pubsub")
                .since("7.0.0").summary("Listen for messages published to shard channels")
                .handler(ctx -> subscribe(ctx, Kind.SHARD)).build());
        t.add(command("unsubscribe", -1).flags(SUBSCRIBING).group("pubsub").since("2.0.0")
                .summary("Stop listening to channels").handler(ctx -> unsubscribe(ctx, Kind.CHANNEL)).build());
        t.add(command("punsubscribe", -1).flags(SUBSCRIBING).group("pubsub").since("2.0.0")
                .summary("Stop listening to patterns").handler(ctx -> unsubscribe(ctx, Kind.PATTERN)).build());
        t.add(command("sunsubscribe", -1).flags(SUBSCRIBING).keys(1, -1, 1).keySpecFlags("not_key")
                .group("pubsub").since("7.0.0").summary("Stop listening to shard channels")
                .handler(ctx -> unsubscribe(ctx, Kind.SHARD)).build());
        t.add(command("publish", 3).flags(PUBLISHING).group("pubsub").since("2.0.0")
                .summary("Send a message to a channel's listeners")
                .handler(ctx -> ctx.reply().integer(pubSub(ctx).publish(ctx.arg(1), ctx.arg(2)))).build());
        t.add(command("spublish", 3).flags(PUBLISHING).keys(1, 1, 1).keySpecFlags("not_key").group("pubsub")
                .since("7.0.0").summary("Send a message to a shard channel's listeners")
                .handler(ctx -> ctx.reply().integer(pubSub(ctx).publishShard(ctx.arg(1), ctx.arg(2)))).build());
        registerIntrospection(t);
    }

    /** PUBSUB's subcommands, in the order Redis 7.0's COMMAND INFO lists them. */
    private void registerIntrospection(CommandTable t) {
        t.add(command("pubsub", -2).group("pubsub").since("2.8.0").summary("Inspect the pub/sub state")
                .handler(ctx -> { }).build());
        t.add(subcommand("pubsub", "numsub", -2).flags(INTROSPECTION).group("pubsub").since("2.8.0")
                .summary("Listener counts of channels").handler(ctx -> numsub(ctx, Kind.CHANNEL)).build());
        t.add(subcommand("pubsub", "numpat", 2).flags(INTROSPECTION).group("pubsub").since("2.8.0")
                .summary("How many distinct patterns have listeners")
                .handler(ctx -> ctx.reply().integer(pubSub(ctx).patternCount())).build());
        t.add(subcommand("pubsub", "shardnumsub", -2).flags(INTROSPECTION).group("pubsub").since("7.0.0")
                .summary("Listener counts of shard channels").handler(ctx -> numsub(ctx, Kind.SHARD)).build());
        t.add(subcommand("pubsub", "help", 2).flags("loading stale").group("pubsub").since("6.2.0")
                .summary("Describe the PUBSUB subcommands").handler(this::help).build());
        t.add(subcommand("pubsub", "channels", -2).flags(INTROSPECTION).group("pubsub").since("2.8.0")
                .summary("Channels with listeners").handler(ctx -> channels(ctx, Kind.CHANNEL)).build());
        t.add(subcommand("pubsub", "shardchannels", -2).flags(INTROSPECTION).group("pubsub").since("7.0.0")
                .summary("Shard channels with listeners").handler(ctx -> channels(ctx, Kind.SHARD)).build());
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
        return new RedisError("ERR unknown subcommand or wrong number of arguments for '" + ctx.text(1)
                + "'. Try PUBSUB HELP.");
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
