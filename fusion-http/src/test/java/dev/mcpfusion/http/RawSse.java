package dev.mcpfusion.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 exchange on a raw socket, read as a server-sent event stream: the tests need to cut
 * the connection at a chosen event, which an HTTP client library hides. Reads the status and
 * headers, then the body (chunked, with a length, or to the end), event by event.
 */
final class RawSse implements AutoCloseable {
  /** One event block: its fields as sent ({@code null} when absent), or a comment-only block. */
  record Event(String id, String event, String data, String comment) {}

  private final Socket socket;
  private final InputStream body;
  final int status;
  final Map<String, String> headers;

  private RawSse(Socket socket, int status, Map<String, String> headers, InputStream body) {
    this.socket = socket;
    this.status = status;
    this.headers = headers;
    this.body = body;
  }

  /** Sends {@code method} to {@code /mcp} with these headers (name, value, …) and {@code body} (may be null). */
  static RawSse send(int port, String method, String body, String... headers) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(20_000);
    StringBuilder request = new StringBuilder(method).append(" /mcp HTTP/1.1\r\nHost: 127.0.0.1:")
        .append(port).append("\r\n");
    for (int i = 0; i < headers.length; i += 2) {
      request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
    }
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    if (body != null) {
      request.append("Content-Type: application/json\r\nContent-Length: ").append(content.length)
          .append("\r\n");
    }
    request.append("\r\n");
    OutputStream out = socket.getOutputStream();
    out.write(request.toString().getBytes(StandardCharsets.UTF_8));
    out.write(content);
    out.flush();
    InputStream in = new java.io.BufferedInputStream(socket.getInputStream());
    String statusLine = line(in);
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> read = new LinkedHashMap<>();
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      int colon = header.indexOf(':');
      read.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
    }
    InputStream content0;
    if ("chunked".equalsIgnoreCase(read.get("transfer-encoding"))) {
      content0 = new Chunked(in);
    } else if (read.containsKey("content-length")) {
      content0 = new Bounded(in, Long.parseLong(read.get("content-length")));
    } else {
      content0 = in;
    }
    return new RawSse(socket, status, read, content0);
  }

  /** The next event block, or {@code null} when the body has ended. */
  Event next() throws IOException {
    String id = null;
    String event = null;
    StringBuilder data = null;
    StringBuilder comment = null;
    boolean any = false;
    while (true) {
      String line = sseLine();
      if (line == null) {
        return any ? new Event(id, event, data == null ? null : data.toString(),
            comment == null ? null : comment.toString()) : null;
      }
      if (line.isEmpty()) {
        if (any) {
          return new Event(id, event, data == null ? null : data.toString(),
              comment == null ? null : comment.toString());
        }
        continue;
      }
      any = true;
      if (line.startsWith(":")) {
        comment = (comment == null ? new StringBuilder() : comment.append('\n')).append(line.substring(1).trim());
      } else if (line.startsWith("id:")) {
        id = line.substring(3).trim();
      } else if (line.startsWith("event:")) {
        event = line.substring(6).trim();
      } else if (line.startsWith("data:")) {
        data = (data == null ? new StringBuilder() : data.append('\n')).append(line.substring(5).trim());
      }
    }
  }

  /** The next event that carries data (heartbeat comments skipped), or {@code null} at the end. */
  Event nextMessage() throws IOException {
    for (Event e = next(); e != null; e = next()) {
      if (e.data() != null) {
        return e;
      }
    }
    return null;
  }

  /** Every remaining message event, until the body ends. */
  List<Event> rest() throws IOException {
    List<Event> events = new ArrayList<>();
    for (Event e = nextMessage(); e != null; e = nextMessage()) {
      events.add(e);
    }
    return events;
  }

  /** The rest of the body as text. */
  String text() throws IOException {
    return new String(body.readAllBytes(), StandardCharsets.UTF_8);
  }

  /** Cuts the connection (no further byte read or sent). */
  @Override
  public void close() throws IOException {
    socket.close();
  }

  private String sseLine() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = body.read()) >= 0 && b != '\n') {
      line.write(b);
    }
    if (b < 0 && line.size() == 0) {
      return null;
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        line.write(b);
      }
    }
    if (b < 0 && line.size() == 0) {
      throw new IOException("the connection ended");
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  /**
   * A chunked body, de-chunked; ends at the last chunk. The CRLF closing a chunk is read only when
   * the next one is wanted: a server may send it with the next chunk's size, so reading it early
   * would wait for an event that has not been sent.
   */
  private static final class Chunked extends InputStream {
    private final InputStream in;
    private long left;
    private boolean done;
    private boolean started;

    Chunked(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      if (done) {
        return -1;
      }
      if (left == 0) {
        if (started) {
          line(in); // the CRLF after the previous chunk
        }
        started = true;
        String size = line(in);
        int semicolon = size.indexOf(';');
        left = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
        if (left == 0) {
          done = true;
          return -1;
        }
      }
      int b = in.read();
      if (b < 0) {
        done = true;
        return -1;
      }
      left--;
      return b;
    }
  }

  /** A body of a known length. */
  private static final class Bounded extends InputStream {
    private final InputStream in;
    private long left;

    Bounded(InputStream in, long length) {
      this.in = in;
      this.left = length;
    }

    @Override
    public int read() throws IOException {
      if (left == 0) {
        return -1;
      }
      int b = in.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }
  }
}
