package dev.mcpfusion.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One of the client's roots ({@code roots/list}): a directory or file the client lets the server
 * work with, as {@link RequestContext#roots()} returns them.
 *
 * @param uri the root's URI ({@code file://…})
 * @param name a name for people, or {@code null} when the client gave none
 */
public record Root(String uri, String name) {
  /** A root; {@code uri} is required. */
  public Root {
    Objects.requireNonNull(uri, "uri");
  }

  /**
   * Reads a {@code roots/list} result: every entry must be an object with a string {@code uri}.
   *
   * @throws FusionError {@code CLIENT_ERROR} naming the first entry at fault
   */
  static List<Root> fromWire(Map<?, ?> result) {
    if (!(result.get("roots") instanceof List<?> roots)) {
      throw FusionError.of("CLIENT_ERROR", "The client answered roots/list without a \"roots\" array.")
          .recovery("Continue without the client's roots, or ask the user which folder to use.");
    }
    List<Root> out = new ArrayList<>(roots.size());
    for (int i = 0; i < roots.size(); i++) {
      if (!(roots.get(i) instanceof Map<?, ?> root) || !(root.get("uri") instanceof String uri)) {
        throw FusionError.of("CLIENT_ERROR", "The client's roots/list answer has an entry without a"
                + " string \"uri\" at roots[" + i + "].")
            .recovery("Continue without the client's roots, or ask the user which folder to use.");
      }
      out.add(new Root(uri, root.get("name") instanceof String name ? name : null));
    }
    return List.copyOf(out);
  }
}
