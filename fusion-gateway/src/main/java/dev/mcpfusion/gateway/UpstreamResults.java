package dev.mcpfusion.gateway;

import dev.mcpfusion.core.Content;
import dev.mcpfusion.core.FusionError;
import dev.mcpfusion.core.RequestContext;
import dev.mcpfusion.json.Json;
import dev.mcpfusion.wire.Codes;
import dev.mcpfusion.wire.Meta;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the agent reads of an upstream's answer. A result's text blocks become the gateway's text
 * (the egress chain then redacts and caps it like any result), its images, audio and resources are
 * attached as they came; a tool error keeps the upstream's code, message and recovery and names the
 * upstream; a failure to answer is an envelope naming the upstream and what to do.
 */
final class UpstreamResults {
  private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{0,63}");
  private static final Pattern MESSAGE = Pattern.compile("<message>(.*?)</message>", Pattern.DOTALL);
  /** The longest upstream error text the gateway passes on. */
  private static final int MAX_ERROR_CHARS = 2000;

  private UpstreamResults() {}

  /**
   * The text of a successful result; attaches its other content to {@code request}.
   *
   * @throws FusionError the upstream's tool error, or its JSON-RPC refusal, naming the upstream
   */
  static String text(String upstream, String tool, Map<String, Object> response,
      RequestContext request) {
    if (!(response.get("result") instanceof Map<?, ?> result)) {
      throw refused(upstream, tool, response.get("error"));
    }
    List<String> texts = new ArrayList<>();
    if (result.get("content") instanceof List<?> content) {
      for (Object item : content) {
        if (item instanceof Map<?, ?> block) {
          if ("text".equals(block.get("type")) && block.get("text") instanceof String text) {
            texts.add(text);
          } else if (!Boolean.TRUE.equals(result.get("isError"))) {
            attach(block, request);
          }
        }
      }
    }
    String text = String.join("\n\n", texts);
    if (texts.isEmpty() && result.get("structuredContent") instanceof Map<?, ?> structured) {
      text = Json.write(structured);
    }
    if (Boolean.TRUE.equals(result.get("isError"))) {
      throw toolError(upstream, tool, text, result.get("_meta"));
    }
    return text.isEmpty() ? "OK" : text;
  }

  /** An upstream tool error, in the gateway's envelope: the upstream's code, message and recovery. */
  private static FusionError toolError(String upstream, String tool, String text, Object meta) {
    Map<?, ?> error = meta instanceof Map<?, ?> m && m.get(Meta.ERROR) instanceof Map<?, ?> e
        ? e : Map.of();
    String code = error.get("code") instanceof String c && CODE.matcher(c).matches()
        ? c : Codes.UPSTREAM_ERROR;
    // A Fusion upstream writes its envelope as text: its <message> is the part to keep.
    Matcher inner = MESSAGE.matcher(text);
    String message = inner.find() ? unescape(inner.group(1)) : text;
    String recovery = error.get("recovery") instanceof String r && !r.isBlank() ? r
        : "Read the message: it is " + upstream + "'s own. Fix what it names and call again,"
            + " or tell the user what " + upstream + " said.";
    FusionError out = FusionError.of(code, "The upstream " + upstream + " answered " + tool
        + " with an error: " + clip(message.isBlank() ? "(no message)" : message))
        .recovery(recovery)
        .detail("upstream", upstream);
    if (error.get("retryAfterSeconds") instanceof Number seconds && seconds.longValue() > 0) {
      out.retryAfter(java.time.Duration.ofSeconds(seconds.longValue()));
    }
    return out;
  }

  /** A JSON-RPC error to {@code tools/call}: the upstream refused the request itself. */
  private static FusionError refused(String upstream, String tool, Object error) {
    String said = error instanceof Map<?, ?> e && e.get("message") instanceof String m ? m : "";
    return FusionError.of(Codes.UPSTREAM_ERROR, "The upstream " + upstream + " refused the call to "
            + tool + (said.isBlank() ? "." : ": " + clip(said)))
        .recovery("Check the arguments against the tool's input schema and call again; if "
            + upstream + " keeps refusing, tell the user.")
        .detail("upstream", upstream);
  }

  /**
   * The envelope of an upstream that did not answer (the breaker has counted it as a failure);
   * {@code tool} is the upstream's name for it, the agent's is {@code <upstream>_<tool>}.
   */
  static FusionError failure(String upstream, String tool, UpstreamFailure failure) {
    if (failure.kind() == UpstreamFailure.Kind.TIMEOUT) {
      return FusionError.of(Codes.TIMEOUT, failure.getMessage())
          .recovery("The call may still have taken effect in " + upstream + ". Check before you"
              + " call " + upstream + "_" + tool + " again; if " + upstream
              + " keeps timing out, tell the user.")
          .detail("upstream", upstream);
    }
    return FusionError.of(Codes.UPSTREAM_UNAVAILABLE, failure.getMessage())
        .recovery("Retry once in a few seconds. If it fails again, do not call " + upstream
            + "'s tools; tell the user " + upstream + " is unavailable.")
        .detail("upstream", upstream);
  }

  private static void attach(Map<?, ?> block, RequestContext request) {
    Object type = block.get("type");
    String mime = block.get("mimeType") instanceof String m ? m : null;
    if (("image".equals(type) || "audio".equals(type)) && block.get("data") instanceof String data
        && mime != null) {
      request.attach("image".equals(type) ? Content.image(data, mime) : Content.audio(data, mime));
    } else if ("resource_link".equals(type) && block.get("uri") instanceof String uri) {
      request.attach(Content.resourceLink(uri, block.get("name") instanceof String n ? n : uri,
          block.get("description") instanceof String d ? d : null, mime));
    } else if ("resource".equals(type) && block.get("resource") instanceof Map<?, ?> resource
        && resource.get("uri") instanceof String uri) {
      String resourceMime = resource.get("mimeType") instanceof String m ? m : null;
      if (resource.get("text") instanceof String text) {
        request.attach(Content.resource(uri, resourceMime, text));
      } else if (resource.get("blob") instanceof String blob) {
        request.attach(Content.resource(uri, resourceMime, Base64.getDecoder().decode(blob)));
      }
    }
  }

  private static String clip(String text) {
    return text.length() <= MAX_ERROR_CHARS ? text : text.substring(0, MAX_ERROR_CHARS) + "…";
  }

  private static String unescape(String markup) {
    return markup.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
        .replace("&apos;", "'").replace("&amp;", "&");
  }
}
