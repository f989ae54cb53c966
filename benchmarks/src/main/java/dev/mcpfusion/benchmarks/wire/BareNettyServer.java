package dev.mcpfusion.benchmarks.wire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
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
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The other container alone: Netty's HTTP/1.1 codec on NIO event loops (what Vert.x, and so
 * Quarkus MCP, serves on), answering every POST with {@link BareJettyServer}'s canned reply on the
 * event loop that read it — no thread hand-off, no MCP. Beside {@code BareJettyServer} it says what
 * an event-loop transport would save against Jetty's thread per request, before any MCP work.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.mcpfusion.benchmarks.wire.BareNettyServer PORT
 * </pre>
 */
public final class BareNettyServer {
  private BareNettyServer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: BareNettyServer PORT");
      System.exit(2);
    }
    // Netty's default event-loop count (twice the cores), as Vert.x's default is.
    EventLoopGroup boss = new NioEventLoopGroup(1);
    EventLoopGroup workers = new NioEventLoopGroup();
    try {
      Channel server = new ServerBootstrap()
          .group(boss, workers)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel channel) {
              channel.pipeline()
                  .addLast(new HttpServerCodec())
                  .addLast(new HttpObjectAggregator(4 * 1024 * 1024))
                  .addLast(new Canned());
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])))
          .sync()
          .channel();
      System.err.println("bare Netty on http://127.0.0.1:"
          + ((InetSocketAddress) server.localAddress()).getPort() + "/mcp");
      server.closeFuture().sync();
    } finally {
      boss.shutdownGracefully();
      workers.shutdownGracefully();
    }
  }

  /** Answers each request with the canned reply (202 for a notification), keeping the connection. */
  private static final class Canned extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
      byte[] reply = BareJettyServer.reply(request.content().toString(StandardCharsets.UTF_8));
      FullHttpResponse response = reply == null
          ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.ACCEPTED)
          : new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
              Unpooled.wrappedBuffer(reply));
      if (reply != null) {
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        response.headers().set("Mcp-Session-Id", "bare");
      }
      HttpUtil.setContentLength(response, reply == null ? 0 : reply.length);
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      HttpUtil.setKeepAlive(response, keepAlive);
      if (keepAlive) {
        context.writeAndFlush(response);
      } else {
        context.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close();
    }
  }
}
