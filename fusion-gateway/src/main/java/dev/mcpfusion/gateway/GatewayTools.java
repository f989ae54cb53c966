package dev.mcpfusion.gateway;

import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.spi.ActionDescriptor;
import dev.mcpfusion.core.spi.ElementKind;
import dev.mcpfusion.core.spi.ResultShape;
import dev.mcpfusion.core.spi.RouterDescriptor;
import dev.mcpfusion.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The gateway's own tools, when it has a delegation key: {@code gateway_handoff} hands the
 * caller's session to a specialist upstream with carry-over state (each call to it then carries a
 * fresh signed token), and {@code gateway_return} brings the session back, reconciling the state
 * the specialist's work produced with what was handed off.
 */
final class GatewayTools extends SessionRouter {
  static final String NAME = "gateway";
  private static final int HANDOFF = 0;

  private final RouterDescriptor descriptor;

  GatewayTools(List<String> upstreams, CallerSessions sessions) {
    super(sessions);
    Map<String, Object> stateSchema = new LinkedHashMap<>();
    stateSchema.put("type", "object");
    stateSchema.put("additionalProperties", Map.of("type", "string"));
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("type", "string");
    target.put("enum", new ArrayList<>(upstreams));
    target.put("description", "The upstream to hand the work to");
    Map<String, Object> handoffState = new LinkedHashMap<>(stateSchema);
    handoffState.put("description", "What the specialist needs to know, as text values");
    Map<String, Object> returnState = new LinkedHashMap<>(stateSchema);
    returnState.put("description", "What the specialist's work produced, as text values");
    this.descriptor = RouterDescriptor.builder(NAME, GatewayTools.class)
        .description("Handoff to a specialist upstream and return")
        .actions(List.of(
            ActionDescriptor.action("handoff").method("handoff")
                .description("Hand this session to a specialist upstream, with the state it needs;"
                    + " its tools then act for you under a signed delegation until gateway_return")
                .inputSchema(Json.write(object(Map.of("target", target, "state", handoffState),
                    List.of("target"))))
                .result(ResultShape.VALUE, ElementKind.NONE)
                .build(),
            ActionDescriptor.action("return").method("back")
                .description("Bring this session back from the specialist, with the state its work"
                    + " produced; the gateway reconciles it with the state handed off")
                .idempotent(false)
                .inputSchema(Json.write(object(Map.of("state", returnState), List.of())))
                .result(ResultShape.VALUE, ElementKind.NONE)
                .build()))
        .build();
  }

  private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", new TreeMap<>(properties));
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  @Override
  public RouterDescriptor descriptor() {
    return descriptor;
  }

  @Override
  Object call(int action, Map<String, ?> args, RequestContext request,
      CallerSessions.Session session) {
    Map<String, String> state = new LinkedHashMap<>();
    if (args.get("state") instanceof Map<?, ?> given) {
      given.forEach((k, v) -> state.put(String.valueOf(k), String.valueOf(v)));
    }
    if (action == HANDOFF) {
      String target = (String) args.get("target");
      Map<String, String> carried = new LinkedHashMap<>(session.state());
      carried.putAll(state);
      session.handOff(target, carried);
      return "Handed off to " + target + ". Its tools (" + target + "_*) now act for you under a"
          + " signed delegation carrying this state: " + Json.write(carried) + ". Call"
          + " gateway_return when " + target + "'s part is done.";
    }
    String from = session.delegatedTo();
    if (from == null) {
      throw FusionError.conflict("This session is not handed off to a specialist, so there is"
              + " nothing to return from.")
          .recovery("Call gateway_handoff first, or go on with the tools you need.");
    }
    Map<String, String> before = session.state();
    Map<String, String> reconciled = new LinkedHashMap<>(before);
    reconciled.putAll(state);
    List<String> changed = new ArrayList<>();
    state.forEach((k, v) -> {
      if (!v.equals(before.get(k))) {
        changed.add(k);
      }
    });
    session.returned(reconciled);
    return "Back at the gateway from " + from + ". State: " + Json.write(reconciled)
        + (changed.isEmpty() ? "; " + from + " changed nothing."
            : "; set by " + from + ": " + String.join(", ", changed) + ".");
  }
}
