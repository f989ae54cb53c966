package dev.mcpfusion.framework.egress;

import dev.mcpfusion.annotation.Action;
import dev.mcpfusion.annotation.Limits;
import dev.mcpfusion.annotation.Mutation;
import dev.mcpfusion.annotation.Query;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Meta;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Every outbound channel of the vault, exercised on one {@link Wire}: each try opens an account
 * holding a {@link Plant}'s secrets, then makes each handler write them into what it sends, and
 * checks everything the server wrote meanwhile — for every secret planted on this wire so far, in
 * every form its detector claims — and the size of every {@code tools/call} reply against its
 * tool's {@code @Limits(maxEgressBytes)}.
 *
 * <p>Each step also checks that its channel really carried something (a result, a progress
 * notification, a sampling request…), so that a channel that went silent cannot pass for a clean
 * one.
 */
final class Channels implements AutoCloseable {
  /** How long a notification that follows a reply ({@code resources/updated}) may take. */
  private static final Duration FOLLOW_UP = Duration.ofSeconds(5);
  private static final String TOOL_PREFIX = "vault_";
  private static final Map<String, Integer> CAPS = caps();

  private final Wire wire;
  /** What finds the secrets of every plant on this wire so far: a late message may carry any. */
  private final List<Plant.Search> planted = new ArrayList<>();
  private final AtomicInteger accounts = new AtomicInteger();

  Channels(Wire wire) {
    this.wire = wire;
  }

  Wire wire() {
    return wire;
  }

  /** One step: the channel it exercises, what the wire carried, and what must have come. */
  private record Step(String channel, Exchange exchange, String expected, boolean carried) {}

  /**
   * Plants {@code plant} and sends it through every channel the era carries.
   *
   * @return every problem found: secrets on the wire, replies over their cap, silent channels
   */
  List<String> exercise(Plant plant) {
    String id = String.format("acct-%06d", accounts.incrementAndGet());
    planted.add(plant.search());
    List<Step> steps = new ArrayList<>();

    Exchange opened = call("open_account", open(id, plant), Map.of());
    steps.add(new Step("tool result (open_account)", opened, "a successful result",
        toolSucceeded(opened)));
    Exchange got = call("get_account", Map.of("id", id), Map.of());
    steps.add(new Step("tool result + attachments (get_account)", got, "a successful result",
        toolSucceeded(got)));
    Exchange locked = call("lock_account", Map.of("id", id), Map.of());
    steps.add(new Step("error envelope (lock_account)", locked, "a tool error result",
        locked.succeeded() && Boolean.TRUE.equals(result(locked).get("isError"))));
    Exchange exported = call("export_statement", Map.of("id", id), Map.of());
    steps.add(new Step("byte cap: 2 × 100 kB attached (export_statement)", exported,
        "a result", exported.succeeded()));

    Exchange brief = wire.request(JsonRpc.PROMPTS_GET,
        Map.of("name", "brief_account", "arguments", Map.of("account", id)));
    steps.add(new Step("prompt, plain text (brief_account)", brief, "a result", brief.succeeded()));
    Exchange review = wire.request(JsonRpc.PROMPTS_GET,
        Map.of("name", "review_account", "arguments", Map.of("account", id)));
    steps.add(new Step("prompt, presenter-backed (review_account)", review, "a result",
        review.succeeded()));
    Exchange statement = wire.request(JsonRpc.RESOURCES_READ,
        Map.of("uri", "vault://statements/" + id));
    steps.add(new Step("resource, text (vault://statements/{id})", statement, "a result",
        statement.succeeded()));
    Exchange account = wire.request(JsonRpc.RESOURCES_READ, Map.of("uri", "vault://accounts/" + id));
    steps.add(new Step("resource, presenter-backed (vault://accounts/{id})", account, "a result",
        account.succeeded()));
    Exchange completed = wire.request(JsonRpc.COMPLETE, Map.of(
        "ref", Map.of("type", "ref/prompt", "name", "brief_account"),
        "argument", Map.of("name", "account", "value", id)));
    steps.add(new Step("completion values (brief_account.account)", completed, "a result",
        completed.succeeded()));

    Exchange audited = call("audit", Map.of("id", id), Map.of(Meta.PROGRESS_TOKEN, "audit-" + id));
    steps.add(new Step("progress + log notifications (audit)", audited,
        JsonRpc.PROGRESS + " and " + JsonRpc.MESSAGE + " before a successful result",
        toolSucceeded(audited) && audited.saw(JsonRpc.PROGRESS) && audited.saw(JsonRpc.MESSAGE)));

    if (!wire.modern()) {
      // The 2026-07-28 era cannot carry these today: a stateless call cannot send the client a
      // request in the middle of it (that era asks through input-required results, which another
      // issue builds; RequestContext.sample/elicit answer CLIENT_UNAVAILABLE there), and it has no
      // resource subscriptions (resources/subscribe is -32601 in that era).
      Exchange sampled = call("summarise", Map.of("id", id), Map.of());
      steps.add(new Step("sampling request (summarise)", sampled,
          JsonRpc.SAMPLING_CREATE_MESSAGE + " before a successful result",
          toolSucceeded(sampled) && sampled.saw(JsonRpc.SAMPLING_CREATE_MESSAGE)));
      Exchange elicited = call("confirm_transfer", Map.of("id", id), Map.of());
      steps.add(new Step("elicitation request (confirm_transfer)", elicited,
          JsonRpc.ELICITATION_CREATE + " before a successful result",
          toolSucceeded(elicited) && elicited.saw(JsonRpc.ELICITATION_CREATE)));

      String uri = "vault://keys/" + plant.subscribedToken();
      Exchange subscribed = wire.request(JsonRpc.RESOURCES_SUBSCRIBE, Map.of("uri", uri));
      steps.add(new Step("resource subscription", subscribed, "a result", subscribed.succeeded()));
      Exchange rotated = call("rotate_keys", Map.of("id", id), Map.of());
      if (!rotated.saw(JsonRpc.RESOURCE_UPDATED)) {
        // Sent after the mutation's reply (over HTTP on the GET stream): wait for it.
        rotated = rotated.and(wire.await(r -> JsonRpc.RESOURCE_UPDATED.equals(r.method()),
            FOLLOW_UP));
      }
      steps.add(new Step("resources/updated (subscribed vault://keys/{key}, rotate_keys)",
          rotated, JsonRpc.RESOURCE_UPDATED + " after a successful result",
          toolSucceeded(rotated) && rotated.saw(JsonRpc.RESOURCE_UPDATED)));
      Exchange unsubscribed = wire.request(JsonRpc.RESOURCES_UNSUBSCRIBE, Map.of("uri", uri));
      steps.add(new Step("resource subscription", unsubscribed, "a result",
          unsubscribed.succeeded()));
    }

    List<String> problems = new ArrayList<>();
    for (Step step : steps) {
      check(step, problems);
    }
    return problems;
  }

  private Exchange call(String action, Map<String, Object> arguments, Map<String, Object> meta) {
    return wire.request(JsonRpc.TOOLS_CALL,
        Map.of("name", TOOL_PREFIX + action, "arguments", arguments), meta);
  }

  private static Map<String, Object> open(String id, Plant plant) {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("id", id);
    args.put("holder", "Ada Lovelace");
    args.put("card", plant.card());
    args.put("iban", plant.iban());
    args.put("stripeKey", plant.stripeKey());
    args.put("githubToken", plant.githubToken());
    args.put("slackToken", plant.slackToken());
    args.put("awsKeyId", plant.awsKeyId());
    args.put("note", plant.note());
    args.put("sentinel", plant.sentinel());
    return args;
  }

  private void check(Step step, List<String> problems) {
    Exchange e = step.exchange();
    if (!step.carried()) {
      problems.add("SILENT   | " + step.channel() + " | expected " + step.expected() + "; got "
          + e.received());
    }
    for (Received r : e.received()) {
      String squeezed = Plant.Search.squeezed(r.raw());
      for (Plant.Search search : planted) {
        for (Plant.Leak leak : search.in(r.raw(), squeezed)) {
          problems.add("LEAK     | " + step.channel() + " | " + kind(r, e) + " | " + leak.kind()
              + " \"" + leak.found() + "\" at " + where(r, search, leak.kind()));
        }
      }
    }
    if (JsonRpc.TOOLS_CALL.equals(e.method())) {
      String tool = (String) e.params().get("name");
      int cap = CAPS.get(tool);
      long bytes = measured(e.reply());
      if (bytes > cap && !Codes.PAYLOAD_TOO_LARGE.equals(errorCode(e))) {
        problems.add("OVER CAP | " + step.channel() + " | the reply's content + structuredContent"
            + " + _meta are " + bytes + " bytes; " + tool + " may send " + cap);
      }
    }
  }

  private static boolean toolSucceeded(Exchange e) {
    return e.succeeded() && Boolean.FALSE.equals(result(e).get("isError"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> result(Exchange e) {
    return (Map<String, Object>) e.replyTree().get("result");
  }

  private static String errorCode(Exchange e) {
    return e.succeeded() && result(e).get("_meta") instanceof Map<?, ?> meta
        && meta.get(Meta.ERROR) instanceof Map<?, ?> error ? String.valueOf(error.get("code")) : null;
  }

  /** What a received message is: a notification or server request by method, else the reply. */
  private static String kind(Received r, Exchange e) {
    if (r.method() != null) {
      return r.method() + (r.isServerRequest() ? " (request to the client)" : "") + " ["
          + r.via() + "]";
    }
    return r.json() != null ? "reply to " + e.method() + " [" + r.via() + "]" : r.via();
  }

  /** The JSON paths of the string values that carry the leak, or where in the bytes it is. */
  private static String where(Received r, Plant.Search search, String kind) {
    Map<String, Object> tree = r.json() == null ? null : r.tree();
    if (tree == null) {
      return "(" + r.via() + ")";
    }
    List<String> paths = new ArrayList<>();
    paths(tree, "", text -> search.in(text, Plant.Search.squeezed(text)).stream()
        .anyMatch(l -> l.kind().equals(kind)), paths);
    return paths.isEmpty() ? "(outside any string value)" : String.join(", ", paths);
  }

  private static void paths(Object node, String at, Predicate<String> hit,
      List<String> out) {
    if (node instanceof Map<?, ?> map) {
      map.forEach((k, v) -> {
        if (hit.test(String.valueOf(k))) {
          out.add(at + "{key " + k + "}");
        }
        paths(v, at.isEmpty() ? String.valueOf(k) : at + "." + k, hit, out);
      });
    } else if (node instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        paths(list.get(i), at + "[" + i + "]", hit, out);
      }
    } else if (node instanceof String text && hit.test(text)) {
      out.add(at);
    }
  }

  /**
   * What the byte cap measures of a {@code tools/call} reply (docs/guide/limits.md, "The byte cap"): its
   * {@code content}, {@code structuredContent} and {@code _meta} as written, without the
   * 2026-07-28 server name (framing). {@code isError} and the envelope are left out, so a reply
   * the server measured within its cap is within it here too. A JSON-RPC error measures 0.
   */
  static long measured(Received reply) {
    Map<String, String> message = Json.rawMembers(reply.json());
    String result = message.get("result");
    if (result == null) {
      return 0;
    }
    Map<String, String> members = Json.rawMembers(result);
    Map<String, String> counted = new LinkedHashMap<>();
    for (String name : List.of("content", "structuredContent", "_meta")) {
      String value = members.get(name);
      if (value == null) {
        continue;
      }
      if (name.equals("_meta")) {
        Map<String, String> meta = Json.rawMembers(value);
        meta.remove(Meta.SERVER_INFO);
        if (meta.isEmpty()) {
          continue;
        }
        value = Json.fromRawMembers(meta);
      }
      counted.put(name, value);
    }
    return Json.fromRawMembers(counted).getBytes(StandardCharsets.UTF_8).length;
  }

  /** Each tool's byte cap, read from {@code @Limits} on its method or else on the router. */
  private static Map<String, Integer> caps() {
    int routerCap = VaultTools.class.getAnnotation(Limits.class).maxEgressBytes();
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Method m : VaultTools.class.getDeclaredMethods()) {
      if (m.isAnnotationPresent(Query.class) || m.isAnnotationPresent(Mutation.class)
          || m.isAnnotationPresent(Action.class)) {
        Limits limits = m.getAnnotation(Limits.class);
        int cap = limits != null && limits.maxEgressBytes() > 0 ? limits.maxEgressBytes() : routerCap;
        out.put(TOOL_PREFIX + snakeCase(m.getName()), cap);
      }
    }
    return Map.copyOf(out);
  }

  private static String snakeCase(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }

  @Override
  public void close() {
    wire.close();
  }
}
