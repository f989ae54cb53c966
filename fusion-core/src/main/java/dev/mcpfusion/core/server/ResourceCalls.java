package dev.mcpfusion.core.server;

import dev.mcpfusion.core.Caller;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.core.egress.Egress;
import dev.mcpfusion.redact.Redactor;
import dev.mcpfusion.redact.Tally;
import dev.mcpfusion.core.spi.ResourceDescriptor;
import dev.mcpfusion.core.trace.FusionTracer;
import dev.mcpfusion.core.trace.internal.RequestTrace;
import dev.mcpfusion.core.trace.internal.SpanStart;
import dev.mcpfusion.wire.Echo;
import dev.mcpfusion.wire.JsonRpc;
import dev.mcpfusion.wire.Reply;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers {@code resources/list}, {@code resources/templates/list} and {@code resources/read},
 * and checks the URI a subscription names.
 */
final class ResourceCalls extends FeatureAnswers {
  ResourceCalls(FeatureRegistry registry, Egress egress, FusionTracer tracer, FeatureRunner runner,
      FeaturePresenter presenter) {
    super(registry, egress, tracer, runner, presenter);
  }

  /** The {@code resources/list} result: the static resources whose scopes {@code caller} holds. */
  Map<String, Object> listResources(Caller caller) {
    List<Object> resources = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : registry.staticResources()) {
      if (!caller.missing(r.descriptor().scopes()).isEmpty()) {
        continue;
      }
      Map<String, Object> resource = describe(r.descriptor());
      resource.put("uri", r.descriptor().uri());
      resources.add(reorder(resource, "uri"));
    }
    return Map.of("resources", resources);
  }

  /** The {@code resources/templates/list} result: the templates whose scopes {@code caller} holds. */
  Map<String, Object> listTemplates(Caller caller) {
    List<Object> templates = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : registry.templates()) {
      if (!caller.missing(r.descriptor().scopes()).isEmpty()) {
        continue;
      }
      Map<String, Object> template = describe(r.descriptor());
      template.put("uriTemplate", r.descriptor().uri());
      templates.add(reorder(template, "uriTemplate"));
    }
    return Map.of("resourceTemplates", templates);
  }

  private static Map<String, Object> describe(ResourceDescriptor d) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", d.name());
    if (!d.title().isEmpty()) {
      out.put("title", d.title());
    }
    out.put("description", d.description());
    out.put("mimeType", d.mimeType());
    putIcons(out, d.icons());
    return out;
  }

  private static Map<String, Object> reorder(Map<String, Object> map, String first) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(first, map.get(first));
    map.forEach((k, v) -> {
      if (!k.equals(first)) {
        out.put(k, v);
      }
    });
    return out;
  }

  /**
   * The URI a {@code resources/subscribe} or {@code unsubscribe} names, checked: a string that a
   * resource or template of this server serves.
   */
  String subscribable(Map<?, ?> params, Caller caller) {
    String uri = uri(params, "resources/subscribe", caller);
    FeatureRegistry.Resolved resolved = registry.resolve(uri);
    if (resolved == null) {
      throw unknownResource(uri, caller);
    }
    FeatureRegistry.BoundResource resource = resolved.resource();
    List<String> missing = caller.missing(resource.descriptor().scopes());
    if (!missing.isEmpty()) {
      throw forbidden(FeatureRunner.routerOf(resource.router(), resource.features()), "resource",
          uri, missing);
    }
    return uri;
  }

  private String uri(Map<?, ?> params, String method, Caller caller) {
    Object uri = params == null ? null : params.get("uri");
    if (!(uri instanceof String s)) {
      throw new FeatureError(JsonRpc.INVALID_PARAMS, "Invalid params: " + method
          + " needs the resource \"uri\" (a string). " + resourceList(caller), null);
    }
    return s;
  }

  /** The {@code resources/read} result for {@code params} ({@code uri}), for the request {@code call}. */
  Map<String, Object> readResource(Map<?, ?> params, RequestContext request,
      FeatureRequest call) {
    String uri = uri(params, "resources/read", request.caller());
    FeatureRegistry.Resolved resolved = registry.resolve(uri);
    FeatureRegistry.BoundResource r = resolved == null ? null : resolved.resource();
    call.trace(SpanStart.resource(tracer, uri, r == null ? null : r.descriptor().uri(),
        r == null ? null : FeatureRunner.routerOf(r.router(), r.features()), request, call.id()));
    if (resolved == null) {
      throw unknownResource(uri, request.caller());
    }
    FeatureRegistry.BoundResource resource = resolved.resource();
    ResourceDescriptor d = resource.descriptor();
    String router = FeatureRunner.routerOf(resource.router(), resource.features());
    List<String> missing = request.caller().missing(d.scopes());
    if (!missing.isEmpty()) {
      throw forbidden(router, "resource", uri, missing);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> answer = (Map<String, Object>) runner.run(router, d.name(), uri,
        resolved.variables(), request, resource.chain(), resource.limits(), resource.gate(), call,
        JsonRpc.RESOURCE_NOT_FOUND, "resource", null,
        ctx -> resource.features().resource(resource.index(), resolved.variables(), ctx),
        result -> resourceResult(d, uri, result));
    return answer;
  }

  /**
   * The {@code resources/read} result of what the handler returned: its view's stripped data (which
   * the view's redaction masked), a base64 blob, or text (which the content redactor masked).
   */
  private Map<String, Object> resourceResult(ResourceDescriptor d, String uri, Object result) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("uri", uri);
    content.put("mimeType", d.mimeType());
    if (d.presenter() != null) {
      Reply reply = presenter.present(d.presenter(), result, d.name());
      content.put("text", reply.blocks().get(0));
      if (!reply.meta().isEmpty()) {
        content.put("_meta", new LinkedHashMap<>(reply.meta()));
      }
    } else if (result instanceof byte[] bytes) {
      content.put("blob", Base64.getEncoder().encodeToString(bytes));
    } else if (result instanceof String text) {
      Redactor redactor = egress.content(null);
      content.put("text", redactor == null ? text : redactor.text(text, new Tally()));
    } else {
      throw new IllegalStateException(result == null ? "returned null"
          : "returned a " + result.getClass().getName());
    }
    return Map.of("contents", List.of(content));
  }

  /** The resource {@code uri} does not exist; the URIs listed are those {@code caller} may see. */
  private FeatureError unknownResource(String uri, Caller caller) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("code", "UNKNOWN_RESOURCE");
    data.put("uri", Echo.cut(uri));
    data.put("resources", uris(registry.staticResources(), caller));
    data.put("templates", uris(registry.templates(), caller));
    return new FeatureError(JsonRpc.RESOURCE_NOT_FOUND, "The resource " + Echo.quoted(uri)
        + " does not exist. " + resourceList(caller), data);
  }

  private String resourceList(Caller caller) {
    return "Resources: " + FeatureRunner.list(uris(registry.staticResources(), caller))
        + "; templates: " + FeatureRunner.list(uris(registry.templates(), caller)) + ".";
  }

  /**
   * The URIs of {@code resources} whose scopes {@code caller} holds, as the lists show them: an
   * error must not name a resource the lists hide.
   */
  static List<String> uris(List<FeatureRegistry.BoundResource> resources, Caller caller) {
    List<String> out = new ArrayList<>();
    for (FeatureRegistry.BoundResource r : resources) {
      if (caller.missing(r.descriptor().scopes()).isEmpty()) {
        out.add(r.descriptor().uri());
      }
    }
    return out;
  }

}
