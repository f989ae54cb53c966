package dev.mcpfusion.benchmarks.wire;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One keep-alive HTTP/1.1 connection on a blocking socket: the load generator's client. Cheaper per
 * request than {@code java.net.http.HttpClient} (no selector thread, no futures), so on two cores
 * the server, not the client, is what runs out of CPU. Reads {@code Content-Length} and chunked
 * bodies; reconnects after {@code Connection: close}. Not thread-safe: one per client thread.
 */
final class HttpConnection implements Closeable {
  /** An HTTP response: status, headers (lower-case names) and the raw body. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String header(String name) {
      return headers.get(name);
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The JSON-RPC message: the body, or for an event stream the last {@code data:} payload. */
    String json() {
      String text = text();
      String type = headers.getOrDefault("content-type", "");
      if (!type.startsWith("text/event-stream")) {
        return text;
      }
      String last = null;
      StringBuilder event = new StringBuilder();
      for (String line : text.split("\r?\n", -1)) {
        if (line.startsWith("data:")) {
          event.append(line.substring(line.startsWith("data: ") ? 6 : 5));
        } else if (line.isEmpty() && event.length() > 0) {
          last = event.toString();
          event.setLength(0);
        }
      }
      return event.length() > 0 ? event.toString() : last;
    }
  }

  private final String host;
  private final int port;
  private final byte[] requestHead;
  private Socket socket;
  private InputStream in;
  private OutputStream out;
  private final ByteArrayOutputStream request = new ByteArrayOutputStream(1024);

  /** A connection to {@code 127.0.0.1:port}, posting to {@code path}; opens on first use. */
  HttpConnection(int port, String path) {
    this.host = "127.0.0.1";
    this.port = port;
    this.requestHead = ("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
        + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * POSTs {@code body} with the extra {@code headers} (each {@code "Name: value"}, pre-encoded)
   * and reads the whole response.
   */
  Response post(byte[] headers, byte[] body) throws IOException {
    if (socket == null) {
      open();
    }
    request.reset();
    request.write(requestHead);
    request.write(headers);
    request.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    request.write(body);
    request.writeTo(out);
    out.flush();
    Response response = read();
    if ("close".equalsIgnoreCase(response.header("connection"))) {
      close();
    }
    return response;
  }

  /** Encodes {@code "Name: value"} header lines for {@link #post}. */
  static byte[] headers(String... nameValue) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < nameValue.length; i += 2) {
      s.append(nameValue[i]).append(": ").append(nameValue[i + 1]).append("\r\n");
    }
    return s.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private void open() throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), 5000);
    socket.setSoTimeout(60_000);
    in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
    out = socket.getOutputStream();
  }

  private Response read() throws IOException {
    String status = line();
    if (!status.startsWith("HTTP/1.")) {
      throw new IOException("Not an HTTP response: " + status);
    }
    int code = Integer.parseInt(status.substring(9, 12));
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line = line(); !line.isEmpty(); line = line()) {
      int colon = line.indexOf(':');
      headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
    }
    byte[] body;
    String length = headers.get("content-length");
    if (length != null) {
      body = in.readNBytes(Integer.parseInt(length));
    } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = chunked();
    } else if (code == 204 || code == 304 || code / 100 == 1) {
      body = new byte[0];
    } else {
      body = in.readAllBytes();
      headers.put("connection", "close");
    }
    return new Response(code, headers, body);
  }

  private byte[] chunked() throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream(1024);
    while (true) {
      String size = line();
      int semicolon = size.indexOf(';');
      int n = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
      if (n == 0) {
        while (!line().isEmpty()) {
          // trailers: ignored
        }
        return body.toByteArray();
      }
      body.write(in.readNBytes(n));
      if (!line().isEmpty()) {
        throw new IOException("Malformed chunk");
      }
    }
  }

  private String line() throws IOException {
    StringBuilder s = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("Connection closed by the server");
      }
      if (b == '\n') {
        int end = s.length();
        if (end > 0 && s.charAt(end - 1) == '\r') {
          s.setLength(end - 1);
        }
        return s.toString();
      }
      s.append((char) b);
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // Closing a loopback socket: nothing to recover.
      }
      socket = null;
    }
  }
}
