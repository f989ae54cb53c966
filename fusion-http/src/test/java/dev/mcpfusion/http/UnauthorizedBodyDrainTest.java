package dev.mcpfusion.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.core.FusionServer;
import dev.mcpfusion.http.fixtures.Ops;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code 401} reads (and drops) the request body up to the endpoint's size limit before it
 * answers, so a client still uploading gets the answer and the connection stays usable; a body
 * over the limit gets the answer and a close. Over a raw socket, so that what happens to the
 * connection is seen: a body left unread would be parsed as the next request.
 */
class UnauthorizedBodyDrainTest {
  static final int LIMIT = 1024 * 1024;

  FusionHttpServer server;

  @BeforeEach
  void start() {
    FusionServer fusion = FusionServer.builder("ops", "1.0.0")
        .register(Ops.OpsTools_Fusion.bind(new Ops.OpsTools()))
        .context(Ops.Caller.class, Ops.Caller::from)
        .build();
    server = FusionHttp.serve(fusion, HttpOptions.port(0).stopOnShutdownSignal(false)
        .maxBodyBytes(LIMIT).auth(HttpAuthenticator.bearer("s3cret")));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private String head(int contentLength) {
    return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n"
        + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        + "Content-Length: " + contentLength + "\r\n\r\n";
  }

  /** One HTTP/1.1 response: its head, then exactly its Content-Length of body. */
  private static String readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed mid-head: " + head.toString(StandardCharsets.ISO_8859_1));
      }
      head.write(b);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1);
    int length = 0;
    for (String line : text.split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).trim());
      }
    }
    return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  private static byte[] body(int size) {
    String prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"pad\":\"";
    return (prefix + "x".repeat(size - prefix.length() - 2) + "\"}").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aBodyWithinTheLimitIsReadSoTheConnectionServesTheNextRequest() throws Exception {
    byte[] body = body(LIMIT);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      // Head and half the body, a pause, then the rest: the server must wait for the upload (a
      // server that answered at once would leave the rest unread and close the connection). The
      // pause makes the slow upload certain; the test passes however fast or slow the server is.
      out.write(head(body.length).getBytes(StandardCharsets.ISO_8859_1));
      out.write(body, 0, body.length / 2);
      out.flush();
      Thread.sleep(500);
      out.write(body, body.length / 2, body.length - body.length / 2);
      out.flush();
      String first = readResponse(in);
      assertThat(first).startsWith("HTTP/1.1 401").containsIgnoringCase("WWW-Authenticate: Bearer")
          .doesNotContainIgnoringCase("Connection: close");
      // The same connection: had the body been left unread, its bytes would start this request.
      out.write(head(body.length).getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      assertThat(readResponse(in)).startsWith("HTTP/1.1 401");
    }
  }

  @Test
  void aBodyOverTheLimitGetsTheAnswerAndAClose() throws Exception {
    byte[] body = body(LIMIT * 4);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      socket.setSoTimeout(20_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      // The upload runs beside the read: the server answers and closes after reading its limit,
      // so the rest of the upload may meet a closed socket ("Broken pipe"), as it would for any
      // client; what this test is about is the answer the client reads.
      Thread upload = new Thread(() -> {
        try {
          out.write(head(body.length).getBytes(StandardCharsets.ISO_8859_1));
          out.write(body);
          out.flush();
        } catch (IOException closedByTheServer) {
          // expected once the server has answered and closed
        }
      }, "upload");
      upload.start();
      String answer = readResponse(in);
      assertThat(answer).startsWith("HTTP/1.1 401").containsIgnoringCase("Connection: close")
          .contains("Unauthorized");
      // Closed after the answer: nothing more, then end of stream — or a reset, which the
      // kernel sends instead of a FIN when the server closes with upload bytes still unread.
      int next;
      try {
        next = in.read();
      } catch (java.net.SocketException reset) {
        assertThat(reset).hasMessageContaining("reset");
        next = -1;
      }
      assertThat(next).isEqualTo(-1);
      upload.join(20_000);
    }
  }
}
