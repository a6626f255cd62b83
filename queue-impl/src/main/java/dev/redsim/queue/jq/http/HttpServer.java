package dev.redsim.queue.jq.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * A small HTTP/1.1 server on Netty (HttpServerCodec + HttpObjectAggregator). Handlers may block (they talk to
 * Redis, long-polls wait), so they run on a thread pool, never on the event loop.
 */
public final class HttpServer implements AutoCloseable {
    private static final int MAX_BODY = 16 * 1024 * 1024;

    @FunctionalInterface
    public interface Handler {
        HttpResponse handle(HttpRequest request);
    }

    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup(2);
    private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "jq-http-handler");
        t.setDaemon(true);
        return t;
    });
    private final Channel channel;

    private HttpServer(String bind, int port, Handler handler) throws InterruptedException {
        // TCP_NODELAY stated rather than left to Netty's platform default: an answer must never wait for the
        // client's delayed ACK (Nagle), which alone costs up to 40 ms per exchange on Linux.
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BODY),
                                new Dispatch(handler));
                    }
                });
        this.channel = bootstrap.bind(bind, port).sync().channel();
    }

    public static HttpServer start(String bind, int port, Handler handler) {
        try {
            return new HttpServer(bind, port, handler);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding", e);
        }
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        handlers.shutdownNow();
        boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private final class Dispatch extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Handler handler;

        Dispatch(Handler handler) {
            this.handler = handler;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest msg) {
            HttpRequest request = decode(msg);
            boolean keepAlive = HttpUtil.isKeepAlive(msg);
            try {
                handlers.execute(() -> reply(ctx, handler.handle(request), keepAlive));
            } catch (RejectedExecutionException e) {
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private static HttpRequest decode(FullHttpRequest msg) {
        QueryStringDecoder uri = new QueryStringDecoder(msg.uri());
        Map<String, String> query = new HashMap<>();
        uri.parameters().forEach((k, v) -> query.put(k, v.get(0)));
        Map<String, String> headers = new HashMap<>();
        msg.headers().forEach(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
        byte[] body = new byte[msg.content().readableBytes()];
        msg.content().readBytes(body);
        return new HttpRequest(msg.method().name(), uri.path(), query, headers, body);
    }

    private static void reply(ChannelHandlerContext ctx, HttpResponse response, boolean keepAlive) {
        FullHttpResponse out = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(response.status()), Unpooled.wrappedBuffer(response.body()));
        if (response.contentType() != null) {
            out.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
        }
        out.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.body().length);
        if (keepAlive) {
            HttpUtil.setKeepAlive(out, true);
            ctx.writeAndFlush(out);
        } else {
            ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
