package dev.mcpfusion.samples.billing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcpfusion.http.FusionHttp;
import dev.mcpfusion.http.HttpOptions;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** deploy/billing.yaml against the server it deploys: the probes, ports and grace cannot drift. */
class DeployManifestTest {
  private static Map<String, Object> deployment;
  private static Map<String, Object> service;

  @BeforeAll
  static void read() throws Exception {
    Path file = Path.of("").toAbsolutePath().getParent().getParent().resolve("deploy/billing.yaml");
    List<Map<String, Object>> documents = new ArrayList<>();
    try (Reader reader = Files.newBufferedReader(file)) {
      for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
        documents.add(map(document));
      }
    }
    deployment = documents.stream().filter(d -> "Deployment".equals(d.get("kind"))).findFirst().orElseThrow();
    service = documents.stream().filter(d -> "Service".equals(d.get("kind"))).findFirst().orElseThrow();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object node) {
    return (Map<String, Object>) node;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> list(Object node) {
    return (List<Object>) node;
  }

  private static Map<String, Object> podSpec() {
    return map(map(map(deployment.get("spec")).get("template")).get("spec"));
  }

  private static Map<String, Object> container() {
    return map(list(podSpec().get("containers")).get(0));
  }

  private static List<String> args() {
    return list(container().get("args")).stream().map(String::valueOf).toList();
  }

  private static String after(String flag) {
    List<String> args = args();
    assertThat(args).as("the container's args").contains(flag);
    return args.get(args.indexOf(flag) + 1);
  }

  /** The port a probe or the Service names (by name or number), as a number. */
  private static int port(Object named) {
    for (Object p : list(container().get("ports"))) {
      Map<String, Object> port = map(p);
      if (named.equals(port.get("name")) || named.equals(port.get("containerPort"))) {
        return (Integer) port.get("containerPort");
      }
    }
    throw new AssertionError("no container port named " + named);
  }

  @Test
  void probesAreTheServersHealthEndpointsOnItsHttpPort() {
    int http = Integer.parseInt(after("--http"));
    Map<String, Object> live = map(map(container().get("livenessProbe")).get("httpGet"));
    Map<String, Object> ready = map(map(container().get("readinessProbe")).get("httpGet"));
    assertThat(live.get("path")).isEqualTo(FusionHttp.LIVE_PATH);
    assertThat(ready.get("path")).isEqualTo(FusionHttp.READY_PATH);
    assertThat(port(live.get("port"))).isEqualTo(http);
    assertThat(port(ready.get("port"))).isEqualTo(http);
  }

  @Test
  void theServiceRoutesToTheMcpPortUnderTheAllowedHostName() {
    Map<String, Object> servicePort = map(list(map(service.get("spec")).get("ports")).get(0));
    assertThat(port(servicePort.get("targetPort"))).isEqualTo(Integer.parseInt(after("--http")));
    assertThat(servicePort.get("port")).isEqualTo(8080);
    assertThat(map(service.get("metadata")).get("name")).isEqualTo(after("--allowed-host"));
    assertThat(after("--bind")).isEqualTo("0.0.0.0");
  }

  @Test
  void podsGetLongerThanTheDrainToStop() {
    long drain = HttpOptions.defaults().shutdownGrace().toSeconds();
    assertThat(drain).isEqualTo(30);
    assertThat((Integer) podSpec().get("terminationGracePeriodSeconds")).isGreaterThanOrEqualTo((int) drain + 2)
        .isEqualTo(40);
  }

  @Test
  void theImageIsTheOneJibBuilds() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    assertThat(pom).contains("<image>fusion-sample-billing:${project.version}</image>");
    assertThat(container().get("image")).isEqualTo("fusion-sample-billing:" + projectVersion(pom));
  }

  private static String projectVersion(String pom) {
    int parent = pom.indexOf("<parent>");
    int start = pom.indexOf("<version>", parent) + "<version>".length();
    return pom.substring(start, pom.indexOf("</version>", start));
  }

  @Test
  void threeReplicasShareOneRedis() {
    assertThat(map(deployment.get("spec")).get("replicas")).isEqualTo(3);
    assertThat(after("--redis")).isEqualTo("redis://redis:6379");
  }

  @Test
  void theSampleStartsWithTheManifestsArgumentsAndAnswersTheServicesHost() throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), BillingMain.class.getName()));
    List<String> args = new ArrayList<>(args());
    // The port is the test's pick; without --redis: this checks the probes and the Host, and
    // BillingFleetTest runs the sample on a real Redis.
    args.set(args.indexOf("--http") + 1, "0");
    int redis = args.indexOf("--redis");
    args.subList(redis, redis + 2).clear();
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try (java.io.BufferedReader err = new java.io.BufferedReader(
        new java.io.InputStreamReader(process.getErrorStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      String line;
      String endpoint = null;
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (endpoint == null && System.nanoTime() < deadline && (line = err.readLine()) != null) {
        if (line.startsWith("billing MCP server listening on ")) {
          endpoint = line.substring("billing MCP server listening on ".length()).trim();
        }
      }
      assertThat(endpoint).as("the sample's start line").isNotNull();
      int port = java.net.URI.create(endpoint).getPort();
      String host = after("--allowed-host") + ":" + port;
      assertThat(raw(port, "GET " + FusionHttp.READY_PATH + " HTTP/1.1\r\nHost: " + host
          + "\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200");
      String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
      assertThat(raw(port, "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
          + "Accept: application/json, text/event-stream\r\nContent-Length: " + ping.length()
          + "\r\nConnection: close\r\n\r\n" + ping)).doesNotStartWith("HTTP/1.1 403");
      assertThat(raw(port, "POST /mcp HTTP/1.1\r\nHost: elsewhere:" + port + "\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + ping.length() + "\r\nConnection: close\r\n\r\n" + ping)).startsWith("HTTP/1.1 403");
    } finally {
      process.destroy();
      if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static String raw(int port, String request) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
