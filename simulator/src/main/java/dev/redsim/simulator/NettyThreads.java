package dev.redsim.simulator;

import dev.redsim.simulator.server.ConnectionAcceptor;
import dev.redsim.simulator.server.ConnectionHandler;
import dev.redsim.simulator.server.NettyConnection;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;

import java.util.concurrent.TimeUnit;

/**
 * A simulator's threads on Netty (the command line's: an epoll accept loop apart from the engine's, decision 0031):
 * each accepted channel gets a {@link NettyConnection} and a {@link ConnectionHandler} driving the server's side.
 */
final class NettyThreads implements ServerThreads {
    private static final long CLOSE_WAIT_SECONDS = 5;
    private final NettyStart.Loops loops;

    NettyThreads(NettyStart.Loops loops) {
        this.loops = loops;
    }

    @Override
    public void execute(Runnable task) {
        loops.engine().next().execute(task);
    }

    @Override
    public boolean inEngineThread() {
        return loops.engine().next().inEventLoop();
    }

    @Override
    public void scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        loops.engine().next().scheduleAtFixedRate(task, initialDelay, period, unit);
    }

    @Override
    public ListeningSockets sockets(ConnectionAcceptor acceptor) {
        ServerBootstrap bootstrap = loops.bootstrap().clone().childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new ConnectionHandler(acceptor.accepted(new NettyConnection(ch))));
            }
        });
        return new NettyListeningSockets(bootstrap, loops.transport());
    }

    @Override
    public void stop() {
        EventLoopGroup engine = loops.engine();
        EventLoopGroup accept = loops.accept();
        if (accept != engine) {
            accept.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
        // the engine's loop closes every channel it has, listening ones included, and its selector: their ports are
        // free before the wait returns (decision 0042)
        engine.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
