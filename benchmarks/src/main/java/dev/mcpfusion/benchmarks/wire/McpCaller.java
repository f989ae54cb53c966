package dev.mcpfusion.benchmarks.wire;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One MCP client of the load generator, already past its handshake: sends {@code tools/call}
 * requests one at a time and returns each JSON-RPC response's text. The same code drives the
 * framework and the plain SDK server; only the port and path differ.
 */
interface McpCaller extends Closeable {
  /** The 2025 protocol version every classic client asks for. */
  String CLASSIC_VERSION = "2025-11-25";
  /** The stateless protocol version. */
  String MODERN_VERSION = "2026-07-28";

  /** Calls {@code tool} with JSON-RPC id {@code id}; returns the response text. */
  String call(long id, Tool tool) throws IOException;

  @Override
  void close();

  /** A tool call the benchmark makes, with its arguments as JSON. */
  enum Tool {
    GET_INVOICE("billing_get_invoice", "{\"id\":\"INV-0042\"}"),
    LIST_INVOICES("billing_list_invoices", "{}");

    final String name;
    final String arguments;

    Tool(String name, String arguments) {
      this.name = name;
      this.arguments = arguments;
    }

    /** The request body up to the id, and from after the id to the end. */
    byte[][] body(boolean modern) {
      String meta = modern ? ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MODERN_VERSION
          + "\",\"io.modelcontextprotocol/clientCapabilities\":{}}" : "";
      return new byte[][] {"{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8),
          (",\"method\":\"tools/call\",\"params\":{\"name\":\"" + name + "\",\"arguments\":" + arguments
              + meta + "}}").getBytes(StandardCharsets.UTF_8)};
    }
  }

  /** Concatenates {@code prefix}, the decimal {@code id} and {@code suffix}. */
  static byte[] withId(byte[][] parts, long id) {
    byte[] digits = Long.toString(id).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[parts[0].length + digits.length + parts[1].length];
    System.arraycopy(parts[0], 0, out, 0, parts[0].length);
    System.arraycopy(digits, 0, out, parts[0].length, digits.length);
    System.arraycopy(parts[1], 0, out, parts[0].length + digits.length, parts[1].length);
    return out;
  }

  /**
   * A 2025 Streamable HTTP client: {@code initialize} (its own session), then
   * {@code notifications/initialized}, then every call with {@code Mcp-Session-Id} and
   * {@code MCP-Protocol-Version}.
   */
  static McpCaller classicHttp(int port, String path) throws IOException {
    HttpConnection connection = new HttpConnection(port, path);
    HttpConnection.Response init = connection.post(new byte[0], ("{\"jsonrpc\":\"2.0\",\"id\":0,"
        + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + CLASSIC_VERSION + "\","
        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"wire-benchmark\",\"version\":\"1.0.0\"}}}")
        .getBytes(StandardCharsets.UTF_8));
    String session = init.header("mcp-session-id");
    if (init.status() != 200 || session == null) {
      connection.close();
      throw new IOException("initialize failed: HTTP " + init.status() + " " + init.text());
    }
    if (!init.json().contains("\"protocolVersion\":\"" + CLASSIC_VERSION + "\"")) {
      connection.close();
      throw new IOException("initialize did not agree on " + CLASSIC_VERSION + ": " + init.json());
    }
    byte[] headers = HttpConnection.headers("Mcp-Session-Id", session, "MCP-Protocol-Version", CLASSIC_VERSION);
    HttpConnection.Response initialized = connection.post(headers,
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}".getBytes(StandardCharsets.UTF_8));
    if (initialized.status() != 202 && initialized.status() != 200) {
      connection.close();
      throw new IOException("notifications/initialized failed: HTTP " + initialized.status() + " " + initialized.text());
    }
    byte[][] get = Tool.GET_INVOICE.body(false);
    byte[][] list = Tool.LIST_INVOICES.body(false);
    return new McpCaller() {
      @Override
      public String call(long id, Tool tool) throws IOException {
        HttpConnection.Response r = connection.post(headers, withId(tool == Tool.GET_INVOICE ? get : list, id));
        if (r.status() != 200) {
          throw new IOException("HTTP " + r.status() + ": " + r.text());
        }
        return r.json();
      }

      @Override
      public void close() {
        connection.close();
      }
    };
  }

  /**
   * A stateless 2026-07-28 client: no handshake; every call carries the version in {@code _meta}
   * and the {@code MCP-Protocol-Version}, {@code Mcp-Method} and {@code Mcp-Name} headers, as the
   * SDK's modern client sends them.
   */
  static McpCaller modernHttp(int port, String path) {
    HttpConnection connection = new HttpConnection(port, path);
    byte[][] get = Tool.GET_INVOICE.body(true);
    byte[][] list = Tool.LIST_INVOICES.body(true);
    byte[] getHeaders = HttpConnection.headers("MCP-Protocol-Version", MODERN_VERSION,
        "Mcp-Method", "tools/call", "Mcp-Name", Tool.GET_INVOICE.name);
    byte[] listHeaders = HttpConnection.headers("MCP-Protocol-Version", MODERN_VERSION,
        "Mcp-Method", "tools/call", "Mcp-Name", Tool.LIST_INVOICES.name);
    return new McpCaller() {
      @Override
      public String call(long id, Tool tool) throws IOException {
        boolean isGet = tool == Tool.GET_INVOICE;
        HttpConnection.Response r = connection.post(isGet ? getHeaders : listHeaders,
            withId(isGet ? get : list, id));
        if (r.status() != 200) {
          throw new IOException("HTTP " + r.status() + ": " + r.text());
        }
        return r.json();
      }

      @Override
      public void close() {
        connection.close();
      }
    };
  }

  /**
   * A 2025 stdio client of a running server process: {@code initialize},
   * {@code notifications/initialized}, then one request line at a time, reading lines until the
   * response (notifications and log lines in between are skipped). Closing it closes the
   * process's stdin and waits for it to exit.
   */
  static McpCaller stdio(Process process) throws IOException {
    OutputStream out = process.getOutputStream();
    BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    McpCaller caller = new McpCaller() {
      private final byte[][] get = Tool.GET_INVOICE.body(false);
      private final byte[][] list = Tool.LIST_INVOICES.body(false);

      @Override
      public String call(long id, Tool tool) throws IOException {
        out.write(withId(tool == Tool.GET_INVOICE ? get : list, id));
        out.write('\n');
        out.flush();
        return response();
      }

      private String response() throws IOException {
        while (true) {
          String line = in.readLine();
          if (line == null) {
            throw new IOException("The server closed stdout");
          }
          if (line.startsWith("{") && (line.contains("\"result\"") || line.contains("\"error\""))) {
            return line;
          }
        }
      }

      @Override
      public void close() {
        closeStdio(out, process);
      }
    };
    try {
      stdioHandshake(out, in);
    } catch (IOException e) {
      caller.close();
      throw e;
    }
    return caller;
  }

  /**
   * The 2025 stdio handshake on a server's stdin and stdout: {@code initialize} (id 0), its answer,
   * then {@code notifications/initialized}.
   */
  /** Closes a stdio server's stdin (it exits on it) and waits for it, then ends it if it hangs. */
  static void closeStdio(OutputStream out, Process process) {
    try {
      out.close();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  static void stdioHandshake(OutputStream out, BufferedReader in) throws IOException {
    out.write(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
        + CLASSIC_VERSION + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"wire-benchmark\","
        + "\"version\":\"1.0.0\"}}}\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    String init = in.readLine();
    if (init == null || !init.contains("\"result\"")) {
      throw new IOException("initialize over stdio failed: " + init);
    }
    out.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
